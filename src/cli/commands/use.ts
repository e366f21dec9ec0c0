import type { Command } from 'commander';
import chalk from 'chalk';
import { defaultOrganisation, listOrganisations, organisationNamed, setDefaultOrganisation } from '../../engine/platform/organisations.js';
import { withCli, type GlobalOptions } from '../context.js';
import { examplesText, handWritten } from '../help.js';
import { printable, printableData, renderRows } from '../render.js';
import { tableWidth } from '../fit-table.js';

export function addUse(program: Command): void {
  const doc = handWritten.use;
  program
    .command(doc.name)
    .argument('[organisation]', "the organisation's id, name, or the start of either")
    .description(doc.summary)
    .addHelpText('after', `\n${doc.description}\n${examplesText(doc)}`)
    .action(async (named: string | undefined, _flags: unknown, cmd: Command) => {
      const globals = cmd.optsWithGlobals<GlobalOptions>();
      await withCli(globals, async (cli) => {
        const id = named === undefined ? undefined : await organisationNamed(cli.store, named, 'organisation');
        if (id !== undefined) await setDefaultOrganisation(cli.store, id);
        const chosen = id ?? (await defaultOrganisation(cli.store));
        const orgs = (await listOrganisations(cli.store)).map((o) => ({ ...o, current: o.id === chosen }));
        if (globals.json) {
          cli.print(id === undefined ? orgs : orgs.find((o) => o.current));
        } else if (id !== undefined) {
          const org = orgs.find((o) => o.current);
          process.stdout.write(`${printable(`Using ${org?.name ?? id} (${id})`)}\n`);
        } else {
          process.stdout.write(
            renderRows(
              printableData(orgs).map((o) => ({ ...o, current: o.current ? chalk.green('*') : '' })),
              undefined,
              tableWidth(globals.wide),
            ),
          );
        }
      });
    });
}
