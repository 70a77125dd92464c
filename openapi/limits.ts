// petkit's limits that openapi.yaml decides in words, where no schema keyword can carry them: one
// place for the mock, the contract suite and the tests (openapi.test.ts holds the document to them).
// Limits a schema states (the list's `limit` maximum, a name's maxLength) are read from the schema.

/** The largest request body petkit accepts: PayloadTooLarge, "larger than 16 KiB", is a 413. */
export const MAX_BODY_BYTES = 16 * 1024;
