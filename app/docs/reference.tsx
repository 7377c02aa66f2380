'use client';
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

// Only what this server offers: no buttons to Scalar's hosted services (its API client app, the
// developer toolbar's share/deploy, the agent), no telemetry. "Test request" stays: it calls this
// server from the page.
export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: '/openapi.json',
        hideClientButton: true,
        showDeveloperTools: 'never',
        agent: { disabled: true },
        telemetry: false,
        withDefaultFonts: false,
      }}
    />
  );
}
