import { ServerConnection } from '@jupyterlab/services';

import {
  contentsError,
  contentsFailure
} from '../../src/common/contents-errors';
import { ToolError, normalizeError } from '../../src/common/errors';

/** What the contents service's REST client throws for an HTTP answer. */
function answered(status: number): ServerConnection.ResponseError {
  return new ServerConnection.ResponseError(
    { status, statusText: `status ${status}` } as Response,
    `answered ${status}`
  );
}

describe('contentsFailure', () => {
  it.each([
    [404, 'not-found'],
    [400, 'refused'],
    [403, 'refused'],
    [409, 'refused'],
    [414, 'refused'],
    [499, 'refused'],
    [500, 'unavailable'],
    [502, 'unavailable'],
    [503, 'unavailable']
  ])('classifies an answer %i as %s', (status, failure) => {
    expect(contentsFailure(answered(status))).toBe(failure);
  });

  it('classifies no answer, and anything else thrown, as unavailable', () => {
    expect(
      contentsFailure(new ServerConnection.NetworkError(new TypeError('x')))
    ).toBe('unavailable');
    expect(contentsFailure(new Error('drive broke'))).toBe('unavailable');
    expect(contentsFailure('a string')).toBe('unavailable');
    expect(contentsFailure(null)).toBe('unavailable');
  });
});

describe('contentsError', () => {
  it('turns a refusal into INVALID_PATH naming the path and the answer', () => {
    expect(normalizeError(contentsError(answered(403), 'a/b.ipynb'))).toEqual({
      error: 'INVALID_PATH',
      message:
        'The workspace refused the path "a/b.ipynb" (its contents service answered 403).',
      path: 'a/b.ipynb',
      reason: 'refused',
      status: 403
    });
  });

  it('turns a server error into NOTEBOOK_NOT_FOUND that says a retry may help', () => {
    expect(normalizeError(contentsError(answered(500), 'x.ipynb'))).toEqual({
      error: 'NOTEBOOK_NOT_FOUND',
      message:
        '"x.ipynb" could not be read: the workspace\'s contents service answered 500. Try again later.',
      path: 'x.ipynb',
      reason: 'unavailable',
      status: 500
    });
  });

  it('turns no answer into NOTEBOOK_NOT_FOUND without a status', () => {
    const payload = normalizeError(
      contentsError(
        new ServerConnection.NetworkError(new TypeError('Failed to fetch')),
        'x.ipynb'
      )
    );
    expect(payload).toEqual({
      error: 'NOTEBOOK_NOT_FOUND',
      message:
        '"x.ipynb" could not be read: the workspace\'s contents service did not answer. Try again later.',
      path: 'x.ipynb',
      reason: 'unavailable'
    });
  });

  it('never gives INTERNAL_ERROR, and keeps a ToolError as it is', () => {
    for (const thrown of [
      answered(400),
      answered(599),
      new Error('x'),
      undefined,
      { response: { status: 'weird' } }
    ]) {
      expect(normalizeError(contentsError(thrown, 'p')).error).not.toBe(
        'INTERNAL_ERROR'
      );
    }
    const own = new ToolError('PATH_EXISTS', 'there');
    expect(contentsError(own, 'p')).toBe(own);
  });
});
