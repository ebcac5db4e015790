/**
 * A self-signed certificate for cdn.example.com with its key, and an unrelated key: enough to check
 * that uploads are parsed and that a key must belong to its certificate. Test data, not secrets.
 */
export const CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIBizCCATGgAwIBAgIUfQvFAiDJX0voXCiAmrWLr8AcN28wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPY2RuLmV4YW1wbGUuY29tMCAXDTI2MTEyMjA4MDQ1MFoYDzIx
MjYxMDI5MDgwNDUwWjAaMRgwFgYDVQQDDA9jZG4uZXhhbXBsZS5jb20wWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAARYnF+2RsSKqmWs8FCFxitl8JIzLk8A9sA3J4jp
Fsle6A1Wnmxgce9D6De6/wYF5ssOdiDLFRwRrECMCJZyv6Q6o1MwUTAdBgNVHQ4E
FgQUImGMx5pjgtqG9UxTOHcpMOoKB+wwHwYDVR0jBBgwFoAUImGMx5pjgtqG9UxT
OHcpMOoKB+wwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBHvGlT
Aic4kRWAD2w8GYKAnHrZ28IlQE0iojF146vGiAIhAMoK1ODkKKJqu/lFXcXcXLPr
TGoP+Ac8RYj/c5rXSfnW
-----END CERTIFICATE-----
`;

export const CERTIFICATE_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgpdFJXlT3mQQEFOw8
3dMnSKSYsAWDx0YcLZKZHTr9DLihRANCAARYnF+2RsSKqmWs8FCFxitl8JIzLk8A
9sA3J4jpFsle6A1Wnmxgce9D6De6/wYF5ssOdiDLFRwRrECMCJZyv6Q6
-----END PRIVATE KEY-----
`;

export const OTHER_KEY_PEM = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg6Gu10heHHHkloY+b
bH3kmlW9eOKmCT+0hgQoaRoBw7ihRANCAATDWCyzfsJm2d1ZZhDGfwFUU7KdGU1E
QWUANRs5Zu2CQhry3Zu4V9nf9ilDDldJQnoThPSF321BUxuGFduHMrr4
-----END PRIVATE KEY-----
`;

export const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
