'use client';
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

export function ApiReference() {
  return <ApiReferenceReact configuration={{ url: '/openapi.json', hideClientButton: false, withDefaultFonts: false }} />;
}
