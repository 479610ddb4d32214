import { describe, expect, it } from 'vitest';
import { newDraft, toDraft, toStep, withValue } from '../pipeline-steps';

describe('pipeline builder steps', () => {
  it('gives back a saved step exactly as it was when the form did not change it', () => {
    const saved = [
      { type: 'rename', columns: { 'a=b': 'c', ' spaced ': 'tidy' } },
      { type: 'flatten', column: 'address', paths: ['city'], separator: '', keep_original: true },
      { type: 'deduplicate', keys: ['email, work'], keep: 'last' },
      { type: 'mask', columns: { email: 'hash' }, note: 'a field the form does not show' },
    ];
    expect(saved.map((step) => toStep(toDraft(step)))).toEqual(saved);
  });

  it('turns edited fields into the API types: lists, pairs, switches; empty optional fields left out', () => {
    let draft = toDraft({ type: 'flatten', column: 'address', paths: ['city'], separator: '-' });
    draft = withValue(draft, 'paths', '');
    draft = withValue(draft, 'separator', '  ');
    draft = withValue(draft, 'keep_original', true);
    // Without paths the engine finds them from the sample; an empty separator means the default.
    expect(toStep(draft)).toEqual({ type: 'flatten', column: 'address', keep_original: true });

    let rename = withValue(newDraft('rename'), 'columns', 'mail = email, tel=phone,');
    expect(toStep(rename)).toEqual({ type: 'rename', columns: { mail: 'email', tel: 'phone' } });
    // A pair without "=" reaches the API with an empty target, which names the field in its 422.
    rename = withValue(rename, 'columns', 'mail');
    expect(toStep(rename)).toEqual({ type: 'rename', columns: { mail: '' } });

    const select = withValue(newDraft('select'), 'columns', ' id , email,, ');
    expect(toStep(select)).toEqual({ type: 'select', columns: ['id', 'email'] });
  });

  it('changes only the field edited in a saved step', () => {
    const draft = withValue(
      toDraft({ type: 'derive', column: 'total', expression: 'price * quantity' }),
      'expression',
      'price * 2',
    );
    expect(toStep(draft)).toEqual({ type: 'derive', column: 'total', expression: 'price * 2' });
  });

  it('refuses a step type it cannot edit instead of dropping it', () => {
    expect(() => toDraft({ type: 'join', with: 'x' })).toThrow(/join/);
  });
});
