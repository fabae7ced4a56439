import { describe, expect, it } from 'vitest';
import { devicePacketsCommand } from './packets-command.ts';

describe('devicePacketsCommand', () => {
  it('lists the device’s addresses for sextant query, the dataset quoted as one shell word', () => {
    expect(devicePacketsCommand('/data/week one', ['4e:2d:a0:7b:82:74', '60:C6:D1:15:E0:8C'])).toBe(
      `sextant query '/data/week one' "SELECT * FROM packets WHERE advertiser_addr IN ('4E:2D:A0:7B:82:74', '60:C6:D1:15:E0:8C') ORDER BY ts_ms" --format csv --max-rows 5000000`,
    );
  });

  it('lets nothing from a crafted file act in the shell or the SQL', () => {
    const command = devicePacketsCommand(`/tmp/x'; rm -rf ~; echo '`, ['AA:BB:CC:DD:EE:FF', `$(reboot)`, `11:22:33:44:55:66') OR 1=1 --`]);
    expect(command).toBe(`sextant query '/tmp/x'\\''; rm -rf ~; echo '\\''' "SELECT * FROM packets WHERE advertiser_addr IN ('AA:BB:CC:DD:EE:FF') ORDER BY ts_ms" --format csv --max-rows 5000000`);
    expect(devicePacketsCommand('/d', ['$(reboot)'])).toBeNull();
  });
});
