import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describeError } from './describe-error.js';

const response = (status: number, data: unknown): AxiosResponse =>
  ({ status, statusText: '', data, headers: {}, config: { headers: new AxiosHeaders() } }) as AxiosResponse;

test("a service's error body gives its message", () => {
  const body = { error: { code: 'internal_error', message: 'Database unavailable' } };
  const error = new AxiosError('Request failed with status code 500', 'ERR_BAD_RESPONSE', undefined, undefined, response(500, body));
  expect(describeError(error)).toBe('Database unavailable');
});

test('a reply without the error body, or no reply, gives the transport message', () => {
  const html = response(502, '<html>Bad gateway</html>');
  const error = new AxiosError('Request failed with status code 502', 'ERR_BAD_RESPONSE', undefined, undefined, html);
  expect(describeError(error)).toBe('Request failed with status code 502');
  expect(describeError(new AxiosError('Network Error', 'ERR_NETWORK'))).toBe('Network Error');
});

test('other errors and thrown values', () => {
  expect(describeError(new Error('boom'))).toBe('boom');
  expect(describeError('plain')).toBe('plain');
});
