// Reads a metrics answer with a real parser of Prometheus' text format (parse-prometheus-text-format,
// a port of the Prometheus Python client's), never by matching text: the tests' view of a scrape.
// The parser reads counters and gauges whole; a histogram with labels it folds into one sample
// (its buckets, not per label set), so a histogram's samples are read by the Python client's own
// parser (prometheus-client-parser.ts).
import parsePrometheusTextFormat, { type Family } from 'parse-prometheus-text-format';

export interface Scraped {
  families: Map<string, Family>;
  /** The value of `name`'s sample whose labels include `labels`, summed over the others; 0 when none. */
  value(name: string, labels?: Record<string, string>): number;
  /** Every value the label takes among `name`'s samples. */
  labelValues(name: string, label: string): Set<string>;
}

export function scraped(text: string): Scraped {
  const families = new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));
  const samples = (name: string) => families.get(name)?.metrics ?? [];
  return {
    families,
    value: (name, labels = {}) =>
      samples(name)
        .filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v))
        .reduce((sum, s) => sum + Number(s.value), 0),
    labelValues: (name, label) => new Set(samples(name).flatMap((s) => (s.labels?.[label] === undefined ? [] : [s.labels[label]]))),
  };
}
