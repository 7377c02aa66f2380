// /silo/v1/retention-rules and an entry's legal hold (docs/api.md, Retention).
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  LegalHoldInput,
  LegalHoldRecord,
  RetentionRuleInput,
  RetentionRuleList,
  RetentionRuleRecord,
  RetentionRulesQuery,
} from '../schemas/retention';
import { body, ENTRY_ID, errors, ok, uuidParam } from './shared';

const tags = ['Retention'];

export const retentionPaths = (): ZodOpenApiPathsObject => ({
  '/silo/v1/retention-rules': {
    get: {
      operationId: 'listRetentionRules',
      tags,
      summary: "The workspace's retention rules in the caller's environment (enrollment tokens may read them)",
      responses: { '200': ok('The rules, oldest first', RetentionRuleList), ...errors(401, 403, 404) },
    },
    post: {
      operationId: 'createRetentionRule',
      tags,
      summary: 'A rule: versions stored in matching entries from now on are kept until the date it gives',
      description:
        "years 0–100, days 0–36,500; `from`: the version's store time or the end of its calendar year (UTC). A version keeps the latest date of its matching rules, compliance when any of them is. With `?apply_to_existing=true` the matching versions stored before are extended too (never shortened). API keys and console users only (an enrollment token: 403). Writes `retention_rule.created`.",
      requestParams: { query: RetentionRulesQuery },
      requestBody: body(RetentionRuleInput),
      responses: { '201': ok('The rule', RetentionRuleRecord), ...errors(401, 403, 404, 415, 422) },
    },
  },
  '/silo/v1/retention-rules/{id}': {
    parameters: [uuidParam('id', 'The rule id')],
    delete: {
      operationId: 'deleteRetentionRule',
      tags,
      summary: 'Delete a rule: versions keep the dates it gave them (writes retention_rule.deleted)',
      responses: { '204': ok('Deleted'), ...errors(401, 403, 404) },
    },
  },
});

/** PUT …/entries/{id}/legal-hold. */
export const legalHoldPaths = (): ZodOpenApiPathsObject => ({
  '/silo/v1/entries/{entry_id}/legal-hold': {
    parameters: [ENTRY_ID],
    put: {
      operationId: 'setLegalHold',
      tags,
      summary: 'Put a legal hold on an entry (hold: true) or lift it (false): while on, nothing in the entry may be deleted',
      description:
        'Writes `legal_hold.set` or `legal_hold.cleared` (a PUT that changes nothing writes none). API keys and console users only.',
      requestBody: body(LegalHoldInput),
      responses: { '200': ok('The hold', LegalHoldRecord), ...errors(401, 403, 404, 415, 422) },
    },
  },
});
