// Runs once when the server starts: migrate the database, then print where to go.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { announce } = await import('./lib/startup');
  await announce();
}
