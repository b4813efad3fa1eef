import { describe, expect, it } from 'vitest';
import { describeCall } from '../../src/core/identity/index.js';

describe('describeCall', () => {
  it('keeps the file a long path names when it shortens the path', () => {
    const path = '/home/developer/projects/payments-service/packages/api/src/settings/config.ts';
    const described = describeCall('Read', { file_path: path });
    expect(described).toContain('config.ts');
    expect(described).toContain('/home/developer');
    expect(described.length).toBeLessThan(path.length + 'Read {file_path: ""}'.length);
  });

  it('shows a short value whole', () => {
    expect(describeCall('Read', { file_path: 'src/config.ts' })).toBe('Read {file_path: "src/config.ts"}');
  });
});
