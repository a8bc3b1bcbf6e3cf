/**
 * How far a reading of a pile's energy register in whole Wh may lie below a decimal reading of the same
 * register without the register having gone backwards. OCPP carries meterStart and meterStop as integer
 * Wh while samples are decimal strings: a pile with a decimal register rounds (or truncates) it, so its
 * meterStop may be up to 1 Wh below its last sample (195 after 195.26). Defined once here for every rule
 * that compares readings (the gateway's plausibility flags, settlement's anomaly rules).
 */
export const METER_ROUNDING_TOLERANCE_WH = 1;
