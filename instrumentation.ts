// Runs once when the server starts: migrate the database, then print where to go. A server that
// cannot start (bad configuration, unreachable database, unwritable data directory) says why and
// exits instead of listening and answering 500s.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { announce } = await import('./lib/startup');
  try {
    await announce();
  } catch (err) {
    console.error(`Silo cannot start: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
