/** Spec §9: a success banner shows for 2500 ms (errors stay until the next action). */
export const SUCCESS_BANNER_MS = 2500;
