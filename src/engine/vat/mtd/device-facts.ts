/**
 * What HMRC's fraud prevention headers report about the machine acct runs
 * on, gathered just before each call: its network addresses, user, system,
 * time zone, and a device id generated once and kept in the data directory.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { DbHandle } from '../../../store/store.js';
import type { PlatformDb } from '../../../store/tables.js';
import { platformSetting } from '../../site-settings.js';

export interface Screen {
  readonly width: number;
  readonly height: number;
  readonly scalingFactor: number;
  readonly colourDepth: number;
}

export interface DeviceFacts {
  /** The operating system's name for the user running acct. */
  readonly userName: string | null;
  /** Every address of the machine's network interfaces but loopback. */
  readonly localIps: readonly string[];
  readonly macAddresses: readonly string[];
  readonly osFamily: string;
  readonly osVersion: string;
  readonly manufacturer: string | null;
  readonly model: string | null;
  /** A program in a terminal cannot measure screens or its window: none. */
  readonly screens: readonly Screen[];
  readonly window: { readonly width: number; readonly height: number } | null;
  /** Minutes ahead of UTC at the moment of the call (-180 is UTC-03:00). */
  readonly utcOffsetMinutes: number;
}

const families: Readonly<Record<string, string>> = { Windows_NT: 'Windows', Darwin: 'macOS', Linux: 'Linux' };

/** One line of a file of /sys, or null where there is none (not Linux, a container). */
function sysValue(file: string): string | null {
  try {
    const value = fs.readFileSync(file, 'utf8').trim();
    return value === '' ? null : value;
  } catch {
    return null;
  }
}

function userName(): string | null {
  try {
    return os.userInfo().username;
  } catch {
    // no passwd entry for the uid (some containers)
    return null;
  }
}

/** The machine's facts at `now` (the time zone's offset depends on the date). */
export function gatherDeviceFacts(now: Date): DeviceFacts {
  const addresses = Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal);
  const macs = new Set(addresses.map((a) => a.mac).filter((m) => m !== '00:00:00:00:00:00'));
  return {
    userName: userName(),
    localIps: [...new Set(addresses.map((a) => a.address))],
    macAddresses: [...macs],
    osFamily: families[os.type()] ?? os.type(),
    osVersion: os.release(),
    manufacturer: sysValue('/sys/class/dmi/id/sys_vendor'),
    model: sysValue('/sys/class/dmi/id/product_name'),
    screens: [],
    window: null,
    utcOffsetMinutes: -now.getTimezoneOffset(),
  };
}

const deviceIdKey = 'hmrc_device_id';

/** This installation's device id (a UUID), made on first use and kept in the platform database of the data directory. */
export async function deviceId(platform: DbHandle<PlatformDb>): Promise<string> {
  const kept = await platformSetting(platform.db, deviceIdKey);
  if (kept !== null) return kept;
  return platform.write(async (trx) => {
    await trx
      .insertInto('platform_settings')
      .values({ key: deviceIdKey, value: randomUUID() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await platformSetting(trx, deviceIdKey)) as string;
  });
}
