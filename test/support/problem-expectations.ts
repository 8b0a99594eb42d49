/** Every error is RFC 9457 problem+json with a type, title, status and detail, and no stack trace. */
export function expectProblem(
  response: { status: number; headers: Headers | Record<string, string>; body: any },
  status: number,
  type?: string,
): void {
  const contentType =
    response.headers instanceof Headers ? response.headers.get('content-type') : response.headers['content-type'];
  expect({ status: response.status, contentType }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/problem\+json/),
  });
  expect(response.body).toEqual(
    expect.objectContaining({
      type: type ? `/problems/${type}` : expect.stringMatching(/^\/problems\//),
      title: expect.any(String),
      status,
      detail: expect.any(String),
    }),
  );
  expect(JSON.stringify(response.body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
}
