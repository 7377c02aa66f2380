// RFC 3161 time-stamps of the event log's checkpoints (docs/api.md, Events). The message imprinted
// is exactly the bytes the checkpoint's Ed25519 signature is over: the UTF-8 of the RFC 8785 JSON
// of {chain, seq, hash, at} (checkpointPayload). A token proves those bytes existed at its genTime,
// signed by the authority whose certificate the token carries (or the one AUDIT_TSA_CERT pins).
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { config } from '../config';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const SIGNED_DATA = '1.2.840.113549.1.7.2';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const EXT_KEY_USAGE = '2.5.29.37';
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

let engineSet = false;
/** pkijs over Node's webcrypto (set once, process-wide). */
export function pkijsEngine() {
  if (!engineSet) {
    pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as Crypto }));
    engineSet = true;
  }
}

/** AUDIT_TSA_CERT as PEM, if set. */
export const pinnedTsaCert = (): string | undefined => config().AUDIT_TSA_CERT?.replace(/\\n/g, '\n');

export interface Timestamp {
  /** base64 DER of the TimeStampToken */
  token: string;
  genTime: Date;
}

export class TimestampError extends Error {}

const ab = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const sha256 = (bytes: string | Uint8Array) => createHash('sha256').update(bytes).digest();

/** Asks the authority at `url` for a token of `payload`, and checks it before keeping it. */
export async function requestTimestamp(
  url: string,
  payload: string,
  opts: { timeoutMs?: number; pinned?: string } = {},
): Promise<Timestamp> {
  pkijsEngine();
  const nonce = randomBytes(8);
  nonce[0] &= 0x7f; // a positive INTEGER
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: ab(sha256(payload)) }),
    }),
    nonce: new asn1js.Integer({ valueHex: ab(nonce) }),
    certReq: true,
  });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: Buffer.from(req.toSchema().toBER(false)),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  if (!res.ok) throw new TimestampError(`the time-stamp authority answered HTTP ${res.status}`);
  const body = new Uint8Array(await res.arrayBuffer());
  let resp: pkijs.TimeStampResp;
  try {
    resp = pkijs.TimeStampResp.fromBER(ab(body));
  } catch {
    throw new TimestampError('the time-stamp authority answered something that is not a TimeStampResp');
  }
  // PKIStatus granted (0) or grantedWithMods (1)
  if (resp.status.status > 1 || !resp.timeStampToken)
    throw new TimestampError(`the time-stamp authority refused (status ${resp.status.status})`);
  const token = Buffer.from(resp.timeStampToken.toSchema().toBER(false)).toString('base64');
  const genTime = await checkTimestamp(token, payload, { nonce, pinned: opts.pinned });
  return { token, genTime };
}

/**
 * Checks a token against `payload`: SHA-256 imprint of exactly those bytes, the nonce asked for (when
 * given), a good CMS signature by the certificate inside the token, which carries the critical
 * extended key usage timeStamping (only) and was valid at genTime; with `pinned` (PEM), that
 * certificate is the pinned one or is issued by it. Returns genTime; throws TimestampError saying why not.
 */
export async function checkTimestamp(token: string, payload: string, opts: { nonce?: Uint8Array; pinned?: string } = {}): Promise<Date> {
  pkijsEngine();
  let signed: pkijs.SignedData;
  let tst: pkijs.TSTInfo;
  try {
    const info = pkijs.ContentInfo.fromBER(ab(Buffer.from(token, 'base64')));
    if (info.contentType !== SIGNED_DATA) throw new Error();
    signed = new pkijs.SignedData({ schema: info.content });
    if (signed.encapContentInfo.eContentType !== TST_INFO || !signed.encapContentInfo.eContent) throw new Error();
    tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent.getValue());
  } catch {
    throw new TimestampError('the time-stamp token is not a CMS SignedData of a TSTInfo');
  }
  const imprint = tst.messageImprint;
  if (imprint.hashAlgorithm.algorithmId !== SHA256 || !Buffer.from(imprint.hashedMessage.getValue()).equals(sha256(payload)))
    throw new TimestampError('the time-stamp token is for other bytes than this checkpoint');
  if (opts.nonce && !(tst.nonce && Buffer.from(tst.nonce.valueBlock.valueHexView).equals(Buffer.from(opts.nonce))))
    throw new TimestampError('the time-stamp token does not carry the nonce asked for');
  let verdict: { signatureVerified?: boolean | null; signerCertificate?: pkijs.Certificate | null };
  try {
    // pkijs checks the imprint again against `data`, then the signature over the signed attributes
    verdict = await signed.verify({ signer: 0, checkChain: false, extendedMode: true, data: ab(Buffer.from(payload)) });
  } catch (err) {
    verdict = (err as { signatureVerified?: boolean }) ?? {};
  }
  const cert = verdict.signerCertificate;
  if (!verdict.signatureVerified || !cert)
    throw new TimestampError("the time-stamp token's signature does not verify against the certificate it carries");
  const eku = cert.extensions?.find((e) => e.extnID === EXT_KEY_USAGE);
  const purposes = (eku?.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? [];
  if (!eku?.critical || purposes.length !== 1 || purposes[0] !== TIME_STAMPING)
    throw new TimestampError("the time-stamp token's certificate lacks the critical extended key usage timeStamping");
  if (tst.genTime < cert.notBefore.value || tst.genTime > cert.notAfter.value)
    throw new TimestampError("the time-stamp token's genTime is outside its certificate's validity");
  if (opts.pinned && !(await issuedByOrIs(cert, opts.pinned)))
    throw new TimestampError("the time-stamp token's certificate is neither AUDIT_TSA_CERT nor issued by it");
  return tst.genTime;
}

async function issuedByOrIs(cert: pkijs.Certificate, pem: string): Promise<boolean> {
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  if (Buffer.from(cert.toSchema().toBER(false)).equals(der)) return true;
  try {
    return await cert.verify(pkijs.Certificate.fromBER(ab(der)));
  } catch {
    return false;
  }
}
