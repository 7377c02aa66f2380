// A scrape read by the Prometheus Python client's own parser (prometheus_client.parser, Debian's
// python3-prometheus-client, run with Debian's python3): it reads every kind of family whole, a
// histogram's buckets, count and sum per label set included, which the JavaScript port
// (scraped.ts) folds together.
import { execFile } from 'node:child_process';

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}
export interface ParsedFamily {
  name: string;
  type: string;
  samples: ParsedSample[];
}

const PYTHON = '/usr/bin/python3';
const SCRIPT = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
value = lambda v: v if math.isfinite(v) else str(v)
out = [{"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": value(s.value)} for s in f.samples]}
       for f in text_string_to_metric_families(sys.stdin.read())]
print(json.dumps(out))
`;

export function parsedByPrometheusClient(text: string): Promise<ParsedFamily[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON, ['-c', SCRIPT], { maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      if (err)
        reject(new Error(`${PYTHON} prometheus_client.parser (apt-get install python3-prometheus-client): ${stderr || err.message}`));
      // NaN and ±Inf come as text (JSON has no such numbers)
      else
        resolve(
          (JSON.parse(stdout) as ParsedFamily[]).map((f) => ({ ...f, samples: f.samples.map((x) => ({ ...x, value: Number(x.value) })) })),
        );
    });
    child.stdin?.end(text);
  });
}
