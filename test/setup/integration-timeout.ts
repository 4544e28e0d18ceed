// Integration tests start processes (the service, the admin script, PostgreSQL) and wait for them:
// on a loaded two-core machine (load average 12) one catalog import took over 20 s, so a test of
// several waits gets three minutes, not jest's default of one.
import { jest } from '@jest/globals';

jest.setTimeout(180_000);
