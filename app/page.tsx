export default function Home() {
  return (
    <main>
      <h1>Silo</h1>
      <p>
        The API is served under <code>/access/v1</code>, <code>/silo/v1</code>, <code>/utils/v1</code> and{' '}
        <code>/admin/v1</code>. See <a href="/docs">the API reference</a>.
      </p>
    </main>
  );
}
