// 'server-only' throws outside a React Server Component bundle; tests and the worker run plain Node.
export {};
