// The class server's storage: one SQLite file under the data directory in WAL mode. A
// result is committed before the server answers, so whatever it acknowledged survives
// the server being killed (`kill -9`) and restarted. synchronous=NORMAL (SQLite's advice
// for WAL) leaves the fsync to checkpoints: better-sqlite3 writes on the event loop, and
// an fsync per post held every other request of a class behind the disk. Only a crash of
// the whole operating system could lose the last few posts. The schema is versioned
// with SQLite's user_version: each migration runs once, in order, inside a transaction.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** Migration n brings the schema from version n to n + 1. Append only: never edit one that shipped. */
const MIGRATIONS: string[] = [
  `CREATE TABLE sessions (
     id INTEGER PRIMARY KEY,
     code TEXT NOT NULL UNIQUE,
     teacher_hash BLOB NOT NULL,
     plan TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     closed_at INTEGER
   );
   CREATE TABLE students (
     id TEXT PRIMARY KEY,
     session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
     token_hash BLOB NOT NULL,
     nickname TEXT NOT NULL,
     joined_at INTEGER NOT NULL,
     hidden INTEGER NOT NULL DEFAULT 0,
     results TEXT,
     summary TEXT,
     done INTEGER NOT NULL DEFAULT 0,
     updated_at INTEGER
   );
   CREATE INDEX students_by_session ON students(session_id, joined_at);`,
  // Joins the teacher closed; nicknames compared as the board shows them (src/core/class/nickname.ts).
  // Machines that joined before this version have no key and are not compared.
  `ALTER TABLE sessions ADD COLUMN joins_closed INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE students ADD COLUMN nickname_key TEXT;
   CREATE UNIQUE INDEX students_by_nickname ON students(session_id, nickname_key) WHERE nickname_key IS NOT NULL;`,
  // A class is a class everywhere: the table and its key are named so. SQLite rewrites the
  // foreign key and the nickname index along with them.
  `ALTER TABLE sessions RENAME TO classes;
   ALTER TABLE students RENAME COLUMN session_id TO class_id;
   DROP INDEX students_by_session;
   CREATE INDEX students_by_class ON students(class_id, joined_at);`,
  // The class size the teacher chose (classes from before had only the server's limit, 500),
  // and every join code a class has had: the current one is classes.code; machines that
  // joined with an older one keep using it, but nobody new joins with it.
  `ALTER TABLE classes ADD COLUMN size INTEGER NOT NULL DEFAULT 500;
   CREATE TABLE class_codes (
     code TEXT PRIMARY KEY,
     class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE
   ) WITHOUT ROWID;
   CREATE INDEX class_codes_by_class ON class_codes(class_id);
   INSERT INTO class_codes (code, class_id) SELECT code, id FROM classes;`,
  // Each machine's guesses (JSON, stage to ratio), sent before it measures: apart from its
  // results, so a machine may guess and post nothing yet.
  `ALTER TABLE students ADD COLUMN guesses TEXT;`,
  // The id of the last results document each machine posted (POST_ID_HEADER in
  // src/core/class/protocol.ts), written with it: a page that sends it again after a lost
  // connection is answered from the board, and nothing is stored or announced twice.
  `ALTER TABLE students ADD COLUMN post_id TEXT;`,
  // Each machine's exercise attempts (JSON, exercise number to its counts and latest
  // outcome: src/core/class/exercise.ts), apart from its results, as its guesses are.
  `ALTER TABLE students ADD COLUMN exercises TEXT;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface ClassRow {
  id: number;
  code: string;
  teacher_hash: Buffer;
  plan: string;
  created_at: number;
  expires_at: number;
  closed_at: number | null;
  joins_closed: number;
  /** Machines the class takes, as its teacher set it. */
  size: number;
}

/** A class as a code finds it: `asked` is the code the request named, which is `code` unless the teacher has changed it since. */
export interface ClassByCode extends ClassRow {
  asked: string;
}

export interface StudentRow {
  id: string;
  class_id: number;
  token_hash: Buffer;
  nickname: string;
  joined_at: number;
  hidden: number;
  results: string | null;
  summary: string | null;
  done: number;
  updated_at: number | null;
  nickname_key: string | null;
  /** JSON of its guesses by stage, or null before its first guess. */
  guesses: string | null;
  /** The id its page gave the results stored now, if it gave one. */
  post_id: string | null;
  /** JSON of its exercise records by exercise, or null before its first attempt. */
  exercises: string | null;
}

/** What the board reads of a machine: its summary (null until it posts) and its guesses, never its whole results document. */
export interface EntryRow {
  id: string;
  nickname: string;
  hidden: number;
  joined_at: number;
  summary: string | null;
  guesses: string | null;
  exercises: string | null;
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new Error(`the class database is at schema version ${version}, newer than this server's ${SCHEMA_VERSION}: update the app`);
  }
  for (let v = version; v < SCHEMA_VERSION; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

export type Store = ReturnType<typeof openStore>;

export function openStore(dataDir: string) {
  const db = openDatabase(dataDir);
  const q = prepareQueries(db);
  const cache = classRowCache(q);
  return { ...classQueries(db, q, cache), ...studentQueries(db, q), shutdown: () => db.close() };
}

/** The data directory's SQLite file, in WAL mode and at the current schema version. */
function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'classroom.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

type Queries = ReturnType<typeof prepareQueries>;

function prepareQueries(db: Database.Database) {
  return {
    insertClass: db.prepare('INSERT INTO classes (code, teacher_hash, plan, size, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)'),
    insertCode: db.prepare('INSERT INTO class_codes (code, class_id) VALUES (?, ?)'),
    codeTaken: db.prepare('SELECT 1 FROM class_codes WHERE code = ?').pluck(),
    classByCode: db.prepare('SELECT classes.*, class_codes.code AS asked FROM class_codes JOIN classes ON classes.id = class_codes.class_id WHERE class_codes.code = ?'),
    setCode: db.prepare('UPDATE classes SET code = ? WHERE id = ?'),
    setSize: db.prepare('UPDATE classes SET size = ? WHERE id = ?'),
    setPlan: db.prepare('UPDATE classes SET plan = ? WHERE id = ?'),
    close: db.prepare('UPDATE classes SET closed_at = ? WHERE id = ? AND closed_at IS NULL'),
    purge: db.prepare('DELETE FROM classes WHERE expires_at < ?'),
    setJoinsClosed: db.prepare('UPDATE classes SET joins_closed = ? WHERE id = ?'),
    insertStudent: db.prepare('INSERT INTO students (id, class_id, token_hash, nickname, nickname_key, joined_at) VALUES (?, ?, ?, ?, ?, ?)'),
    nicknameTaken: db.prepare('SELECT 1 FROM students WHERE class_id = ? AND nickname_key = ?').pluck(),
    removeStudent: db.prepare('DELETE FROM students WHERE id = ? AND class_id = ?'),
    countStudents: db.prepare('SELECT COUNT(*) FROM students WHERE class_id = ?').pluck(),
    student: db.prepare('SELECT * FROM students WHERE id = ? AND class_id = ?'),
    saveResults: db.prepare('UPDATE students SET results = ?, summary = ?, done = ?, updated_at = ?, post_id = ? WHERE id = ?'),
    setHidden: db.prepare('UPDATE students SET hidden = ? WHERE id = ? AND class_id = ?'),
    entries: db.prepare('SELECT id, nickname, hidden, joined_at, summary, guesses, exercises FROM students WHERE class_id = ? ORDER BY joined_at, id'),
    saveGuesses: db.prepare('UPDATE students SET guesses = ? WHERE id = ?'),
    saveExercises: db.prepare('UPDATE students SET exercises = ? WHERE id = ?'),
    silent: db.prepare('SELECT id FROM students WHERE class_id = ? AND summary IS NULL AND exercises IS NULL').pluck(),
    results: db.prepare('SELECT results FROM students WHERE id = ? AND class_id = ?').pluck(),
  };
}

type ClassRowCache = ReturnType<typeof classRowCache>;

/**
 * Every request names its class by code: the rows are kept in memory, and any change of a
 * class drops its rows (this process is the database's only writer).
 */
function classRowCache(q: Queries) {
  const byCode = new Map<string, ClassByCode>();
  return {
    get(code: string): ClassByCode | undefined {
      let row = byCode.get(code);
      if (!row) {
        row = q.classByCode.get(code) as ClassByCode | undefined;
        if (!row) return undefined;
        if (byCode.size > 10_000) byCode.clear();
        byCode.set(code, row);
      }
      return row;
    },
    changed(classId: number): void {
      for (const [code, row] of byCode) if (row.id === classId) byCode.delete(code);
    },
    clear: () => byCode.clear(),
  };
}

/** The store's calls on classes and their codes; each change drops the class's cached rows. */
function classQueries(db: Database.Database, q: Queries, cache: ClassRowCache) {
  const { changed } = cache;
  const createClass = db.transaction((code: string, teacherHash: Buffer, plan: string, size: number, now: number, expiresAt: number): number => {
    const id = Number(q.insertClass.run(code, teacherHash, plan, size, now, expiresAt).lastInsertRowid);
    q.insertCode.run(code, id);
    return id;
  });
  const setCode = db.transaction((classId: number, code: string) => {
    q.insertCode.run(code, classId);
    q.setCode.run(code, classId);
    changed(classId);
  });
  return {
    createClass,
    /** Whether a class has ever had this code (a code is never given to a second class). */
    codeTaken: (code: string) => q.codeTaken.get(code) !== undefined,
    classByCode: cache.get,
    /** Gives the class a new join code; the old ones keep working for machines that joined with them. */
    setCode,
    setSize: (classId: number, size: number) => void (q.setSize.run(size, classId), changed(classId)),
    setPlan: (classId: number, plan: string) => void (q.setPlan.run(plan, classId), changed(classId)),
    close: (classId: number, now: number) => void (q.close.run(now, classId), changed(classId)),
    /** Deletes every class (and its students) whose keeping time ended before `before`. */
    purge: (before: number) => (cache.clear(), q.purge.run(before).changes),
    setJoinsOpen: (classId: number, open: boolean) => void (q.setJoinsClosed.run(open ? 0 : 1, classId), changed(classId)),
  };
}

/** The store's calls on the machines of a class. */
function studentQueries(db: Database.Database, q: Queries) {
  const removeStudents = db.transaction((classId: number, ids: string[]) => ids.filter((id) => q.removeStudent.run(id, classId).changes > 0));
  return {
    addStudent(id: string, classId: number, tokenHash: Buffer, nickname: string, nicknameKey: string, now: number): void {
      q.insertStudent.run(id, classId, tokenHash, nickname, nicknameKey, now);
    },
    nicknameTaken: (classId: number, key: string) => q.nicknameTaken.get(classId, key) !== undefined,
    removeStudent: (classId: number, id: string) => q.removeStudent.run(id, classId).changes > 0,
    /** Removes these machines in one transaction; returns the ids that were there. */
    removeStudents,
    /** Machines that joined and have posted nothing: no results and no exercise attempt. */
    silent: (classId: number) => q.silent.all(classId) as string[],
    countStudents: (classId: number) => q.countStudents.get(classId) as number,
    student: (classId: number, id: string) => q.student.get(id, classId) as StudentRow | undefined,
    /** A machine's results replace the ones it had; `postId` names them (null: the page gave no id). */
    saveResults(id: string, results: string, summary: string, done: boolean, now: number, postId: string | null = null): void {
      q.saveResults.run(results, summary, done ? 1 : 0, now, postId, id);
    },
    saveGuesses(id: string, guesses: string): void {
      q.saveGuesses.run(guesses, id);
    },
    saveExercises(id: string, exercises: string): void {
      q.saveExercises.run(exercises, id);
    },
    setHidden: (classId: number, id: string, hidden: boolean) => q.setHidden.run(hidden ? 1 : 0, id, classId).changes > 0,
    /** Every machine of the class in joining order, with its summary once it has posted. */
    entries: (classId: number) => q.entries.all(classId) as EntryRow[],
    /** One student's whole results document as stored (JSON text), for the export. */
    results: (classId: number, id: string) => q.results.get(id, classId) as string | null | undefined,
  };
}
