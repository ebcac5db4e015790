/**
 * The plane's Signature Version 4 code against the worked examples of AWS's S3 documentation
 * ("Signature calculations for the Authorization header" and "Signature calculations for the
 * Authorization header: transferring payload in multiple chunks"): the same canonical request,
 * the same signatures, computed by AWS and published with the protocol.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AwsChunkedDecoder } from '../../../src/planes/s3/aws-chunked.js';
import { canonicalRequest, readSignature, sign, signingKey, stringToSign } from '../../../src/planes/s3/sigv4.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const DATE = Date.UTC(2013, 4, 24);

function request(method: string, url: string, headers: Record<string, string>): IncomingMessage {
  return {
    method,
    url,
    headers,
    headersDistinct: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
  } as unknown as IncomingMessage;
}

describe('SigV4 against AWS published examples', () => {
  it('signs the GET Object example', () => {
    const authorization =
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41';
    const req = request('GET', '/test.txt', {
      host: 'examplebucket.s3.amazonaws.com',
      range: 'bytes=0-9',
      'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      'x-amz-date': '20130524T000000Z',
      authorization,
    });
    const info = readSignature(req, [], DATE)!;
    const canonical = canonicalRequest(req, '/test.txt', [], info);
    expect(sign(signingKey(SECRET, info.scope), stringToSign(info, canonical))).toBe(info.signature);
  });

  it('verifies the chunks of the multiple-chunks PUT example', async () => {
    const key = signingKey(SECRET, '20130524/us-east-1/s3/aws4_request');
    const signing = {
      key,
      amzDate: '20130524T000000Z',
      scope: '20130524/us-east-1/s3/aws4_request',
      seed: '4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9',
    };
    const body = (sigs: string[]) =>
      Buffer.concat([
        Buffer.from(`10000;chunk-signature=${sigs[0]}\r\n`),
        Buffer.alloc(65536, 'a'),
        Buffer.from(`\r\n400;chunk-signature=${sigs[1]}\r\n`),
        Buffer.alloc(1024, 'a'),
        Buffer.from(`\r\n0;chunk-signature=${sigs[2]}\r\n\r\n`),
      ]);
    const published = [
      'ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648',
      '0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497',
      'b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9',
    ];
    const decode = async (bytes: Buffer) => {
      const chunks: Buffer[] = [];
      for await (const chunk of Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]).pipe(new AwsChunkedDecoder(signing, undefined, 66560)))
        chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    expect((await decode(body(published))).equals(Buffer.alloc(66560, 'a'))).toBe(true);
    const forged = [published[0]!, published[1]!.replace(/^0/, '1'), published[2]!];
    await expect(decode(body(forged))).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
  });
});
