// Byte paths (uploads and file fetches), and POST of a file (small inline files are most of the
// traffic), go to Pages Router API routes, which keep Node's req/res:
// Content-Length is sent and bodies stream ~3× faster than through App Router handlers. Each is
// the same path under /api (pages/api/silo/v1/… mirrors the URL). Unknown API paths fall back to
// pages/api/fallback.ts, which answers the contract's 404 (not_found or unknown_version).

/** @type {import('next').NextConfig} */
module.exports = {
  reactStrictMode: true,
  poweredByHeader: false,
  // prom-client: the one copy scripts/serve.mjs loads too (lib/metrics.mjs).
  serverExternalPackages: ['@electric-sql/pglite', '@node-rs/argon2', 'pg', 'pino', 'prom-client'],
  // Console pages (everything but the API services, next-auth and /openapi.json, whose headers are
  // the API's own): never framed by another site (clickjacking), no full URLs leaked in Referer.
  // Not a full CSP: Next's inline scripts, pdf.js and the srcdoc previews would need nonces.
  async headers() {
    return [
      {
        source: '/:path((?!(?:access|silo|utils|admin|api)(?:/|$)|openapi\\.json$).*)',
        headers: [
          { key: 'Content-Security-Policy', value: "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'" },
          { key: 'X-Frame-Options', value: 'DENY' },
          { key: 'Referrer-Policy', value: 'same-origin' },
          { key: 'X-Content-Type-Options', value: 'nosniff' },
        ],
      },
    ];
  },
  async rewrites() {
    return {
      beforeFiles: [
        { source: '/silo/v1/files/:id', destination: '/api/silo/v1/files/:id' },
        { source: '/silo/v1/export', destination: '/api/silo/v1/export' },
        { source: '/admin/v1/backup', destination: '/api/admin/v1/backup' },
        { source: '/silo/v1/entries/:entry_id/files', destination: '/api/silo/v1/entries/:entry_id/files' },
        { source: '/silo/v1/entries/:entry_id/files/:id', destination: '/api/silo/v1/entries/:entry_id/files/:id' },
        { source: '/silo/v1/entries/:entry_id/files/:id/data', destination: '/api/silo/v1/entries/:entry_id/files/:id/data' },
      ],
      fallback: [
        { source: '/:service(access|silo|utils|admin)', destination: '/api/fallback?service=:service' },
        { source: '/:service(access|silo|utils|admin)/:version/:path*', destination: '/api/fallback?service=:service&version=:version' },
        { source: '/:service/:version(v\\d+)/:path*', destination: '/api/fallback?service=:service&version=:version' },
      ],
    };
  },
};
