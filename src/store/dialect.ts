/** The SQL dialect a store speaks: each backend's differences hang off this one value. */
export type Dialect = 'sqlite' | 'postgres';
