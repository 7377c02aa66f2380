// A readable reference of the API, rendered by Scalar from /openapi.json (bundled, no CDN).
import { ApiReference } from './reference';

export const metadata = { title: 'Silo API reference' };

export default function DocsPage() {
  return <ApiReference />;
}
