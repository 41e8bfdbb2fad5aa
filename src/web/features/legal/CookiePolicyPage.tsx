import { Table } from '@mantine/core';
import { useTranslation } from '@web/lib/reactI18n';
import { LegalDocument } from './LegalDocument';
import { CookiePreferencesForm } from './CookiePreferencesForm';
import { PRIVACY_MAILBOX } from './mailboxes';

export const COOKIE_SECTIONS = [
  'what',
  'categories',
  'used',
  'retention',
  'thirdParties',
  'preferences',
  'browser',
  'changes',
  'contact',
] as const;

interface Row {
  [column: string]: string;
}

/** A caption, column headers and rows from legal.cookies.tables.{name}. */
function PolicyTable({ name }: { name: 'used' | 'retention' }) {
  const { t } = useTranslation();
  const caption = t(`legal.cookies.tables.${name}.caption`);
  const headers = t(`legal.cookies.tables.${name}.headers`, {
    returnObjects: true,
  }) as Row;
  const rows = t(`legal.cookies.tables.${name}.rows`, { returnObjects: true }) as Row[];
  const columns = Object.keys(headers);
  return (
    <Table
      striped
      withTableBorder
      captionSide="top"
      style={{ overflowWrap: 'anywhere' }}
      data-testid={`cookie-table-${name}`}
    >
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c} scope="col">
              {headers[c]}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => (
          <Table.Tr key={i}>
            {columns.map((c, j) =>
              j === 0 ? (
                <Table.Th key={c} scope="row" fw={600}>
                  {row[c]}
                </Table.Th>
              ) : (
                <Table.Td key={c}>{row[c]}</Table.Td>
              ),
            )}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export default function CookiePolicyPage() {
  return (
    <LegalDocument
      doc="cookies"
      sections={COOKIE_SECTIONS}
      mailbox={PRIVACY_MAILBOX}
      extras={{
        used: <PolicyTable name="used" />,
        retention: <PolicyTable name="retention" />,
        preferences: <CookiePreferencesForm />,
      }}
    />
  );
}
