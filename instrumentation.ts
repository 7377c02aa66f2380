// Runs once when the server starts: migrate the database, then print where to go (lib/startup.ts;
// a server that cannot start says why and exits).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { start } = await import('./lib/startup');
  await start();
}
