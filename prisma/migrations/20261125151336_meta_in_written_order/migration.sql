-- `meta` keeps its keys in the order they were written (issue 20, item 15): a key/value list is
-- ordered for the people who read it, and jsonb stores keys sorted (shortest first). json keeps
-- the text as written. Nothing queries meta with jsonb operators or compares it in SQL (json has no
-- equality), so only storage changes. Existing values keep the order jsonb left them in: theirs
-- was lost when they were written. Rewrites both tables under an exclusive lock (once, at start-up).
ALTER TABLE "entries" ALTER COLUMN "meta" DROP DEFAULT;
ALTER TABLE "entries" ALTER COLUMN "meta" SET DATA TYPE JSON USING "meta"::json;
ALTER TABLE "entries" ALTER COLUMN "meta" SET DEFAULT '{}';

ALTER TABLE "files" ALTER COLUMN "meta" DROP DEFAULT;
ALTER TABLE "files" ALTER COLUMN "meta" SET DATA TYPE JSON USING "meta"::json;
ALTER TABLE "files" ALTER COLUMN "meta" SET DEFAULT '{}';
