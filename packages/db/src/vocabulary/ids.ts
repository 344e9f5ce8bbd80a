import { randomBytes } from 'node:crypto';

let counter = randomBytes(2).readUInt16BE(0);

/**
 * A collision-resistant id in the shape of Prisma's cuids (`c` + 24 lowercase base-36 characters:
 * time, a per-process counter, randomness), for rows this package inserts with raw SQL. It
 * satisfies the API's id schema, and ids made in one process sort roughly by time.
 */
export function newId(): string {
  counter = (counter + 1) % 1_679_616; // 36^4
  const time = Date.now().toString(36).padStart(9, '0').slice(-9);
  const count = counter.toString(36).padStart(4, '0');
  const random = BigInt(`0x${randomBytes(8).toString('hex')}`)
    .toString(36)
    .padStart(13, '0')
    .slice(-11);
  return `c${time}${count}${random}`;
}
