// The API's records as the console reads them (contract §2–4).
export interface Page<T> {
  list: T[];
  limit: number;
  cursor?: string;
  next_cursor?: string;
}
export interface ApiKey { id: string; prefix?: string; key?: string; sandbox: boolean; created_at: string }
export interface Owner { id: string; name: string; created_at: string; api_keys?: ApiKey[] }
export interface App { id: string; name: string; client_id: string; client_secret?: string; trusted: boolean; created_at: string }
export interface Enrollment {
  id: string; app_id: string; owner_id: string; created_at: string; updated_at: string;
  data?: unknown; disabled: boolean; sandbox: boolean; token?: string; token_expires?: number;
}
export interface PreviousVersion { id: string; hash: string; size: number; created_at: string }
export interface FileRecord {
  id: string; entry_id: string; name: string; category: 'format' | 'attachment'; key?: string; desc: string;
  mime: string; size: number; hash: string; url: string; stored: boolean; embeddable: boolean; private: boolean;
  meta: Record<string, string>; previous?: PreviousVersion[]; created_at: string;
}
export interface Entry {
  id: string; key?: string; folder: string; name: string; meta: Record<string, string>; sandbox: boolean;
  created_at: string; updated_at: string; attachments?: FileRecord[];
}
export interface User { id: string; email: string; name: string; admin: boolean; owner_ids: string[]; created_at: string }
