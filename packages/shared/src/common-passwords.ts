/**
 * Passwords of 8+ characters that top the published lists of leaked passwords (and their obvious
 * variants): refused as account passwords whatever the case. A short list on purpose: it stops the
 * guesses an attacker tries first, not every weak password.
 */
const COMMON = [
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'password!',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  '12345678',
  '123456789',
  '1234567890',
  '0123456789',
  '87654321',
  '11111111',
  '00000000',
  '12341234',
  '11223344',
  '123123123',
  '123456789a',
  '1q2w3e4r',
  '1q2w3e4r5t',
  'qwertyui',
  'qwertyuiop',
  'qwerty123',
  'qwerty1234',
  'asdfghjk',
  'asdfghjkl',
  'zxcvbnm1',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'welcome123',
  'whatever',
  'trustno1',
  'superman',
  'starwars',
  'dragon123',
  'monkey123',
  'letmein1',
  'letmein123',
  'changeme',
  'changeme1',
  'admin123',
  'administrator',
  'admin1234',
  'abc12345',
  'abcd1234',
  'aa123456',
  'master123',
  'computer',
  'internet',
  'michelle',
  'jennifer',
  'charlie1',
  'shadow12',
  'secret123',
  'default1',
  'looplane',
  'looplane1',
  'looplane123',
];

const common = new Set(COMMON);

/** Why a password is too easy to guess, or null. */
export function weakPasswordReason(password: string): string | null {
  if (common.has(password.toLowerCase())) return 'is one of the most common passwords; choose another';
  if (new Set(password).size <= 2) return 'repeats one or two characters; choose another';
  return null;
}
