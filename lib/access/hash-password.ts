// Console passwords are kept as argon2id hashes.
import { hash as argon2Hash } from '@node-rs/argon2';

export const hashPassword = (password: string) => argon2Hash(password, { algorithm: 2 });
