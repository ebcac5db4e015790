/** The DNS message header as the plane reads and writes it by hand (RFC 1035 §4.1.1): its size and flag bits. */
export const HEADER_BYTES = 12;
export const FLAG = { QR: 0x8000, OPCODE: 0x7800, TC: 0x0200, RD: 0x0100 } as const;
