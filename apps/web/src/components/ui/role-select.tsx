import { ROLES, roleAtLeast, type Role } from '@looplane/shared';
import { Select, type SelectProps } from './field';

/** A select of team roles, optionally capped at `max` (a token may not exceed its creator). */
export function RoleSelect({ max, ...props }: Omit<SelectProps, 'children'> & { max?: Role }) {
  return (
    <Select {...props}>
      {ROLES.filter((role) => !max || roleAtLeast(max, role)).map((role) => (
        <option key={role} value={role}>
          {role}
        </option>
      ))}
    </Select>
  );
}
