// The catalogue of event types, without zod: the console's bundle reads it too (the Activity tab's
// type filter). lib/schemas/events.ts builds the record's schema from it.

/** The kinds of event record, each with what its `data` holds (docs/api.md, Events). */
export const EVENT_TYPES = {
  'entry.created': 'An entry was made. data: {key, folder, name, meta}',
  'entry.updated': 'An entry was edited. data: {before, after} with only the changed fields',
  'entry.deleted':
    'An entry was deleted with its files. data: {key, folder, name, files: [{id, category, key, name, version, sha256, size}]}',
  'file.created':
    'A file was asked for: inline (then file.stored follows) or a placeholder. data: {name, category, key, mime, size, sha256, placeholder}',
  'file.stored': 'A version exists: its bytes were received and verified. data: {name, category, key, mime, size, sha256}',
  'file.updated': 'A version was edited (desc, meta, private, embeddable). data: {before, after}',
  'file.deleted': 'A version, or a file with its history, was deleted. data: {versions: [{id, version, name, sha256, size}]}',
  'file.restored':
    'An earlier version was copied into a new current version. data: {from: {id, version}, name, category, key, mime, size, sha256}',
  'link.created': 'A time-limited link to a version was made. data: {expires_at}',
  'link.revoked': 'Every link of a version was revoked. data: {}',
  'enrollment.created': 'An application was enrolled in the workspace. data: {app_id, app_name}',
  'enrollment.authorized': 'An application authorized itself for the enrollment and got a token. data: {app_id, token_expires}',
  'enrollment.disabled': 'An enrollment was disabled: its tokens stop working. data: {app_id}',
  'enrollment.enabled': 'An enrollment was enabled again. data: {app_id}',
  'key.created': 'An API key was made. data: {key_id, prefix}',
  'key.revoked': 'An API key was revoked. data: {key_id, prefix}',
  'workspace.renamed': 'The workspace was renamed. data: {before: {name}, after: {name}}',
  'auditor_key.created': "An auditor's key was made (POST /silo/v1/auditor-keys). data: {key_id, prefix, from, to, expires_at, note}",
  'auditor_key.revoked': "An auditor's key was revoked. data: {key_id, prefix}",
  'auditor_key.used':
    "An auditor's key was used: one record per request it authenticates, refused ones included. data: {key_id, method, path}",
  'export.created':
    "An auditor's export of the chain was made (GET /silo/v1/export). data: {from, to, versions, bytes, size, manifest_sha256}",
  'webhook.created': 'A webhook endpoint was added. data: {webhook_id, url, types, description}',
  'webhook.updated':
    'A webhook endpoint was edited, disabled (by a caller or by Silo: gone, failing) or enabled. data: {webhook_id, before, after}',
  'webhook.deleted': 'A webhook endpoint was removed. data: {webhook_id, url}',
  'webhook.secret_rotated':
    'A webhook endpoint got a new secret; the old one signs too until previous_until. data: {webhook_id, previous_until}',
  'retention_rule.created':
    'A retention rule was made. data: {id, category?, folder?, years, days, from, mode, applied?} (applied: versions extended, with ?apply_to_existing=true)',
  'retention_rule.deleted':
    'A retention rule was deleted (versions keep the dates it gave). data: {id, category?, folder?, years, days, from, mode}',
  'file.delete_refused':
    'A delete of a version (or a file with its history) was refused: retention or legal hold. data: {reason: retained|legal_hold, retain_until?, mode?, versions: [id]}',
  'entry.delete_refused':
    'A delete of an entry was refused: a version under retention, or a legal hold. data: {reason, retain_until?, mode?, versions: [id]}',
  'workspace.delete_refused':
    'A delete of the workspace was refused: a version under retention, or an entry under a legal hold (live chain). data: {reason, retain_until?, mode?, entries?}',
  'retention.bypassed':
    "Governance retention was overridden by an administrator (X-Silo-Bypass-Governance-Retention: true); the delete's own record follows. data: {versions: [{id, retain_until}]}; a workspace's delete (live chain, its last record, kept in GET /admin/v1/deleted-chains): {workspace: {id, name}, version_count, retain_until}",
  'legal_hold.set': 'A legal hold was put on the entry: nothing in it may be deleted. data: {reason}',
  'legal_hold.cleared': "The entry's legal hold was lifted. data: {reason}",
} as const;
