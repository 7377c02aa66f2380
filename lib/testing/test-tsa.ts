// For tests: a real RFC 3161 time-stamp authority on 127.0.0.1, made with pkijs. A self-signed CA
// (ECDSA P-256, generated per start) issues the TSA's certificate with the critical extended key
// usage timeStamping; each TimeStampReq gets a TSTInfo signed in CMS SignedData (signed attributes
// contentType, messageDigest, signingCertificateV2). `mode` makes it misbehave as a test asks.
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { pkijsEngine } from '../events/timestamp';

export type TsaMode = 'good' | 'garbage' | 'wrong-nonce' | 'other-imprint' | 'no-eku' | 'refuse';

export interface TestTsa {
  url: string;
  /** PEM of the CA that issued the TSA's certificate (what AUDIT_TSA_CERT would pin) */
  caPem: string;
  /** requests answered */
  requests: number;
  mode: TsaMode;
  close(): Promise<void>;
}

const ALG = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
const ab = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const sha256 = (b: ArrayBuffer | Uint8Array) => createHash('sha256').update(new Uint8Array(b)).digest();

async function certificate(o: {
  subject: string;
  issuer: string;
  publicKey: CryptoKey;
  signWith: CryptoKey;
  ca?: boolean;
  eku?: 'critical' | 'none';
}): Promise<pkijs.Certificate> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  const serial = randomBytes(8);
  serial[0] &= 0x7f;
  cert.serialNumber = new asn1js.Integer({ valueHex: ab(serial) });
  const cn = (value: string) => new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value }) });
  cert.issuer.typesAndValues.push(cn(o.issuer));
  cert.subject.typesAndValues.push(cn(o.subject));
  cert.notBefore.value = new Date(Date.now() - 3600_000);
  cert.notAfter.value = new Date(Date.now() + 24 * 3600_000);
  cert.extensions = [];
  if (o.ca)
    cert.extensions.push(
      new pkijs.Extension({
        extnID: '2.5.29.19',
        critical: true,
        extnValue: new pkijs.BasicConstraints({ cA: true }).toSchema().toBER(false),
      }),
    );
  if (o.eku === 'critical')
    cert.extensions.push(
      new pkijs.Extension({
        extnID: '2.5.29.37',
        critical: true,
        extnValue: new pkijs.ExtKeyUsage({ keyPurposes: ['1.3.6.1.5.5.7.3.8'] }).toSchema().toBER(false),
      }),
    );
  await cert.subjectPublicKeyInfo.importKey(o.publicKey);
  await cert.sign(o.signWith, 'SHA-256');
  return cert;
}

export async function startTestTsa(mode: TsaMode = 'good'): Promise<TestTsa> {
  pkijsEngine();
  const subtle = webcrypto.subtle as unknown as SubtleCrypto;
  const caKeys = (await subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const tsaKeys = (await subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const ca = await certificate({
    subject: 'Silo test CA',
    issuer: 'Silo test CA',
    publicKey: caKeys.publicKey,
    signWith: caKeys.privateKey,
    ca: true,
  });
  const issue = (eku: 'critical' | 'none') =>
    certificate({ subject: 'Silo test TSA', issuer: 'Silo test CA', publicKey: tsaKeys.publicKey, signWith: caKeys.privateKey, eku });
  const tsaCert = await issue('critical');
  const noEkuCert = await issue('none');

  const answer = async (body: Buffer): Promise<Buffer> => {
    if (tsa.mode === 'garbage') return randomBytes(64);
    const req = pkijs.TimeStampReq.fromBER(ab(body));
    if (tsa.mode === 'refuse')
      return Buffer.from(new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 2 }) }).toSchema().toBER(false));
    const imprint =
      tsa.mode === 'other-imprint'
        ? new pkijs.MessageImprint({
            hashAlgorithm: req.messageImprint.hashAlgorithm,
            hashedMessage: new asn1js.OctetString({ valueHex: ab(sha256(randomBytes(16))) }),
          })
        : req.messageImprint;
    const nonce = tsa.mode === 'wrong-nonce' ? new asn1js.Integer({ value: 42 }) : req.nonce;
    const tst = new pkijs.TSTInfo({
      version: 1,
      policy: '1.3.6.1.4.1.55555.1',
      messageImprint: imprint,
      serialNumber: new asn1js.Integer({ valueHex: ab(randomBytes(8)) }),
      genTime: new Date(Math.floor(Date.now() / 1000) * 1000),
      accuracy: new pkijs.Accuracy({ seconds: 1 }),
      ...(nonce ? { nonce } : {}),
    });
    const tstDer = tst.toSchema().toBER(false);
    const cert = tsa.mode === 'no-eku' ? noEkuCert : tsaCert;
    const essCertIdV2 = new asn1js.Sequence({
      value: [
        new asn1js.Sequence({
          value: [new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: ab(sha256(cert.toSchema().toBER(false))) })] })],
        }),
      ],
    });
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: TST_INFO,
        eContent: new asn1js.OctetString({ valueHex: tstDer }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({ type: '1.2.840.113549.1.9.3', values: [new asn1js.ObjectIdentifier({ value: TST_INFO })] }),
              new pkijs.Attribute({ type: '1.2.840.113549.1.9.4', values: [new asn1js.OctetString({ valueHex: ab(sha256(tstDer)) })] }),
              new pkijs.Attribute({ type: '1.2.840.113549.1.9.16.2.47', values: [essCertIdV2] }),
            ],
          }),
        }),
      ],
      certificates: req.certReq ? [cert] : undefined,
    });
    await signed.sign(tsaKeys.privateKey, 0, 'SHA-256');
    const token = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signed.toSchema(true) });
    return Buffer.from(
      new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token }).toSchema().toBER(false),
    );
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      tsa.requests++;
      answer(Buffer.concat(chunks)).then(
        (out) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(out),
        () => res.writeHead(400).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const caDer = Buffer.from(ca.toSchema().toBER(false)).toString('base64');
  const tsa: TestTsa = {
    url: `http://127.0.0.1:${port}/tsa`,
    caPem: `-----BEGIN CERTIFICATE-----\n${caDer.replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`,
    requests: 0,
    mode,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return tsa;
}
