/** The web console's labels for fields whose schema has no `title`: the API's names in words. */
import { describe, expect, it } from 'vitest';
import { labelOf } from '../../src/console/labels.js';

describe('labelOf', () => {
  it.each([
    ['OriginUrl', 'Origin URL'],
    ['CacheControlMaxAgeOverride', 'Cache control max age override'],
    ['imageRegistryId', 'Image registry ID'],
    ['BlockedIps', 'Blocked IPs'],
    ['EnableTLS1_1', 'Enable TLS 1.1'],
    ['EnableWebPVary', 'Enable WebP vary'],
    ['ShieldDDosProtectionEnabled', 'Shield DDoS protection enabled'],
    ['OriginRetry5XXResponses', 'Origin retry 5XX responses'],
    ['OptimizerMinifyJavaScript', 'Optimizer minify JavaScript'],
    ['EnableGeoZoneASIA', 'Enable geo zone ASIA'],
    ['url', 'URL'],
    ['autoScaling.min', 'Min'],
    ['srclang', 'Srclang'],
  ])('%s reads "%s"', (name, label) => {
    expect(labelOf(name)).toBe(label);
  });
});
