/** Units that the settings' defaults and bounds are written in, so that `24 * HOUR` reads as a day. */
export const HOUR = 3_600_000;
export const MIB = 1024 * 1024;
