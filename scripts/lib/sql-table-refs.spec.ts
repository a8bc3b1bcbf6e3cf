import { relationRefsInSql, sqlInTypeScript, SUBSTITUTION } from './sql-table-refs';

const refs = (sql: string) => relationRefsInSql(sql).map((r) => `${r.name}:${r.access}`);

describe('relationRefsInSql', () => {
  it.each([
    ['FROM', 'SELECT * FROM station', ['station:read']],
    ['lower case', 'select * from vehicle', ['vehicle:read']],
    [
      'JOIN of any kind',
      'SELECT 1 FROM station s LEFT JOIN charging_pile p ON p.station_id = s.id CROSS JOIN region',
      ['station:read', 'charging_pile:read', 'region:read'],
    ],
    ['a schema-qualified name', 'SELECT 1 FROM public.vehicle v', ['vehicle:read']],
    ['a quoted name', 'SELECT 1 FROM "vehicle" v', ['vehicle:read']],
    ['ONLY', 'SELECT 1 FROM ONLY station', ['station:read']],
    [
      'a comma list, with and without aliases',
      'SELECT 1 FROM a, b x, c AS y, d',
      ['a:read', 'b:read', 'c:read', 'd:read'],
    ],
    [
      'a table after a set-returning function in the list',
      'SELECT 1 FROM unnest($1::int[]) AS u(i, cp), vehicle v WHERE v.id = u.i',
      ['vehicle:read'],
    ],
    [
      'INSERT INTO with columns',
      'INSERT INTO pile_command (id, action) VALUES ($1, $2)',
      ['pile_command:write'],
    ],
    ['INSERT INTO ... SELECT', 'INSERT INTO a SELECT * FROM b', ['a:write', 'b:read']],
    ['UPDATE', 'UPDATE charging_card SET status = $1 WHERE id = $2', ['charging_card:write']],
    [
      'UPDATE ... FROM',
      'UPDATE pile_registry r SET state = $2 FROM charging_pile p WHERE r.charge_point_id = p.charge_point_id',
      ['pile_registry:write', 'charging_pile:read'],
    ],
    ['DELETE FROM', 'DELETE FROM id_tag WHERE id_tag = $1', ['id_tag:write']],
    ['DELETE ... USING', 'DELETE FROM a USING b, c WHERE a.x = b.x', ['a:write', 'b:read', 'c:read']],
    ['TRUNCATE TABLE', 'TRUNCATE TABLE a, b CASCADE', ['a:write', 'b:write']],
    ['TRUNCATE ONLY', 'TRUNCATE ONLY c', ['c:write']],
    ['MERGE', 'MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DO NOTHING', ['t:write', 's:read']],
    [
      'a subquery in the select list',
      'SELECT (SELECT name FROM station WHERE id = p.station_id) FROM charging_pile p',
      ['station:read', 'charging_pile:read'],
    ],
    [
      'a lateral subquery',
      'SELECT 1 FROM a LEFT JOIN LATERAL (SELECT * FROM billing_session b LIMIT 1) used ON true',
      ['a:read', 'billing_session:read'],
    ],
    ['a CTE body', 'WITH x AS (SELECT * FROM vehicle) SELECT * FROM x', ['vehicle:read']],
    [
      'a data-modifying CTE',
      'WITH moved AS (DELETE FROM outbox_event RETURNING *) INSERT INTO archive SELECT * FROM moved',
      ['outbox_event:write', 'archive:write'],
    ],
    [
      'CTEs with column lists and MATERIALIZED',
      'WITH k(cp) AS (SELECT 1), m AS MATERIALIZED (SELECT * FROM station) SELECT * FROM k, m',
      ['station:read'],
    ],
    ['past a comment', 'SELECT 1 -- FROM vehicle\nFROM station /* JOIN region */', ['station:read']],
    [
      'around a substitution',
      `SELECT ${SUBSTITUTION} FROM ${SUBSTITUTION} t JOIN vehicle v ON v.id = t.vehicle_id`,
      ['vehicle:read'],
    ],
  ])('finds %s', (_name, sql, expected) => {
    expect(refs(sql)).toEqual(expected);
  });

  it.each([
    ['a column called like a table', 'SELECT vehicle FROM trips', ['trips:read']],
    ['a qualified column', 'SELECT v.vehicle, v.station FROM x v ORDER BY vehicle', ['x:read']],
    ['a string constant', "SELECT 'FROM vehicle' FROM x", ['x:read']],
    ['an escaped string constant', "SELECT E'it\\'s FROM vehicle' FROM x", ['x:read']],
    ['a dollar-quoted body', 'SELECT $f$ DELETE FROM vehicle $f$, $$ JOIN station $$ FROM x', ['x:read']],
    ['extract(... FROM ...)', 'SELECT extract(epoch FROM vehicle) FROM x', ['x:read']],
    ['substring(... FROM ...)', 'SELECT substring(station FROM 2 FOR 3) FROM x', ['x:read']],
    ['trim(... FROM ...)', "SELECT trim(both ' ' FROM station) FROM x", ['x:read']],
    ['IS DISTINCT FROM', 'SELECT 1 FROM x WHERE a IS NOT DISTINCT FROM vehicle', ['x:read']],
    [
      'ON CONFLICT DO UPDATE',
      'INSERT INTO t (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2',
      ['t:write'],
    ],
    ['FOR UPDATE OF', 'SELECT * FROM t FOR UPDATE OF t', ['t:read']],
    ['FOR NO KEY UPDATE', 'SELECT * FROM t FOR NO KEY UPDATE SKIP LOCKED', ['t:read']],
    ['JOIN ... USING (column)', 'SELECT 1 FROM a JOIN b USING (station)', ['a:read', 'b:read']],
    ['a function aliased like a table', 'SELECT * FROM generate_series(1, 3) vehicle', []],
    ['a recursive CTE', 'WITH RECURSIVE t(n) AS (SELECT 1 UNION SELECT n + 1 FROM t) SELECT * FROM t', []],
    [
      'DDL that names tables elsewhere',
      'CREATE TRIGGER x BEFORE INSERT OR UPDATE ON pile_registry FOR EACH ROW EXECUTE FUNCTION f(); ' +
        'ALTER TABLE a ADD COLUMN s int REFERENCES station (id) ON DELETE CASCADE ON UPDATE CASCADE',
      [],
    ],
    ['English', 'Vehicle plate and station name, as the driver sees them', []],
  ])('does not count %s', (_name, sql, expected) => {
    expect(refs(sql)).toEqual(expected);
  });

  it('gives the offset of each name', () => {
    const sql = 'SELECT 1\n  FROM station';
    expect(relationRefsInSql(sql)).toEqual([
      { name: 'station', access: 'read', index: sql.indexOf('station') },
    ]);
  });
});

describe('sqlInTypeScript', () => {
  const source = [
    "import { x } from 'from station';",
    'const q = `SELECT ${cols}',
    '  FROM vehicle WHERE ${where}`;',
    "const plain = 'DELETE FROM id_tag';",
    "const def = { table: 'charging_pile', label: 'station', byTable: 'region' };",
    "const table = kind === 'ROLE' ? 'sys_role' : ('sys_user' as const);",
    "call('vehicle');",
  ].join('\n');
  const { texts, named } = sqlInTypeScript('x.ts', source);

  it('reads template literals with their substitutions blanked out, and quoted strings, with their line', () => {
    expect(texts).toContainEqual({
      text: `SELECT ${SUBSTITUTION}\n  FROM vehicle WHERE ${SUBSTITUTION}`,
      line: 2,
    });
    expect(texts).toContainEqual({ text: 'DELETE FROM id_tag', line: 4 });
  });

  it('leaves import specifiers alone', () => {
    expect(texts.map((t) => t.text)).not.toContain('from station');
  });

  it('takes a name handed over as a table (property or variable, through ?: and as) and nothing else', () => {
    expect(named).toEqual([
      { name: 'charging_pile', line: 5 },
      { name: 'region', line: 5 },
      { name: 'sys_role', line: 6 },
      { name: 'sys_user', line: 6 },
    ]);
  });
});
