import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { scramVerifier } from '../warehouse.js';

describe('scramVerifier', () => {
  // RFC 7677, section 3: user "user", password "pencil", the exchange's salt, nonces and proofs.
  const salt = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64');
  const authMessage =
    'n=user,r=rOprNGfwEbeRWgbNEkqO,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
  const clientProof = Buffer.from('dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=', 'base64');
  const serverSignature = '6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=';

  it("gives PostgreSQL's stored form, whose keys verify the RFC's exchange", () => {
    const verifier = scramVerifier('pencil', salt);
    const match = /^SCRAM-SHA-256\$4096:([^$]+)\$([^:]+):(.+)$/.exec(verifier);
    expect(match?.[1]).toBe('W22ZaJ0SNY7soEsUEjb6gQ==');
    const storedKey = Buffer.from(match![2]!, 'base64');
    const serverKey = Buffer.from(match![3]!, 'base64');
    // What a server does with the verifier: recover the client key from the proof, compare its hash.
    const clientSignature = createHmac('sha256', storedKey).update(authMessage).digest();
    const clientKey = Buffer.from(clientProof.map((byte, i) => byte ^ clientSignature[i]!));
    expect(createHash('sha256').update(clientKey).digest().equals(storedKey)).toBe(true);
    expect(createHmac('sha256', serverKey).update(authMessage).digest('base64')).toBe(serverSignature);
  });

  it('salts each verifier afresh', () => {
    expect(scramVerifier('pencil')).not.toBe(scramVerifier('pencil'));
  });
});
