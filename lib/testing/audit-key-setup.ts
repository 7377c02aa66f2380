// Every test process signs its event records with an audit key (append-event.ts signs each one):
// a fresh AUDIT_SIGNING_KEY unless the environment gives one. Scripts a test spawns inherit it.
import { generateKeyPairSync } from 'node:crypto';

process.env.AUDIT_SIGNING_KEY ??= generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
