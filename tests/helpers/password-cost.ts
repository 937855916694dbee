/**
 * PASSWORD_HASH_COST for test servers, in process (startServer) or spawned (spawnServer): scrypt N = 1024 instead of
 * the production 16384, so the hundreds of registrations and logins of the suite cost ~2 ms of CPU each instead of
 * ~35. A test that passes PASSWORD_HASH_COST itself gets its value (`''`: the production default).
 */
export const TEST_PASSWORD_HASH_COST = '10';

/**
 * REGISTRATIONS_PER_ADDRESS for test servers: every test registers from 127.0.0.1, many times an hour. A test of the
 * allowance passes its own value.
 */
export const TEST_REGISTRATIONS_PER_ADDRESS = '1000000';
