//! The words the grammar tells apart from names: MySQL's reserved words that a
//! statement here can meet where a name may stand (never a name unquoted), and the
//! other keywords that start the statements the simulator names in a 1235
//! (`SHOW MASTER STATUS`, `GRANT ALL ON`, `CREATE OR REPLACE`).
//!
//! Simplification: these are the words this grammar needs, not MySQL's whole
//! keyword list (`sql/lex.h`); a word missing here ends a 1235's name early.

/// MySQL's reserved words that the statements here could meet where a name may be:
/// they end a list or start a clause, so they are never taken as a name unquoted.
const RESERVED: &[&str] = &[
    "ADD",
    "ALL",
    "ALTER",
    "AND",
    "AS",
    "ASC",
    "BETWEEN",
    "BY",
    "CASE",
    "CHANGE",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "DEFAULT",
    "DELETE",
    "DESC",
    "DISTINCT",
    "DIV",
    "DROP",
    "ELSE",
    "END",
    "EXISTS",
    "FOR",
    "FORCE",
    "FOREIGN",
    "FROM",
    "FULLTEXT",
    "GROUP",
    "HAVING",
    "IGNORE",
    "IN",
    "INDEX",
    "INNER",
    "INSERT",
    "INTERVAL",
    "INTO",
    "IS",
    "JOIN",
    "KEY",
    "KEYS",
    "KILL",
    "LEFT",
    "LIKE",
    "LIMIT",
    "LOCK",
    "MOD",
    "NATURAL",
    "NOT",
    "NULL",
    "ON",
    "OR",
    "ORDER",
    "OUTER",
    "PARTITION",
    "PRIMARY",
    "REFERENCES",
    "REGEXP",
    "RENAME",
    "RIGHT",
    "RLIKE",
    "SELECT",
    "SET",
    "SHOW",
    "SPATIAL",
    "STRAIGHT_JOIN",
    "TABLE",
    "THEN",
    "TO",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USE",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "XOR",
];


/// Keywords that are not reserved, which start or continue the names of
/// statements the simulator does not model; sorted, for a binary search.
const STATEMENT_WORDS: &[&str] = &[
    "AGGREGATE", "ALGORITHM", "ANALYZE", "BEFORE", "BEGIN", "BINARY", "BINLOG", "BLOCK",
    "BLOCK_COMMIT", "BLOCK_DDL", "BODY", "CACHE", "CHAIN", "CHANNEL", "CHARACTER", "CLIENT",
    "CLOSE", "CODE", "COLLATION", "COLUMNS", "COMMIT", "COMPONENT", "CONCURRENT",
    "CONDITION", "CONNECTION", "CONTEXT", "CPU", "CURRENT", "DATA", "DATABASE", "DATABASES",
    "DATAFILE", "DEFINER", "DIAGNOSTICS", "DIRECTORY", "DO", "ENGINE", "ENGINES", "ERROR",
    "ERRORS", "EVENT", "EVENTS", "EXECUTE", "EXPLAIN", "EXTENDED", "FAULTS", "FIELDS",
    "FILE", "FILTER", "FORMAT", "FULL", "FUNCTION", "GENERAL", "GLOBAL", "GRANTS",
    "HANDLER", "HOSTS", "IF", "IMMEDIATE", "INFILE", "INNODB", "INSTANCE", "INVOKER", "IO",
    "IO_THREAD", "IPC", "LOCAL", "LOGFILE", "LOGS", "LOW_PRIORITY", "MASTER", "MEMORY",
    "MERGE", "MIGRATE", "MUTEX", "NO_WRITE_TO_BINLOG", "ONE", "ONLINE", "OPEN", "OPTION",
    "PACKAGE", "PAGE", "PARTITIONS", "PERSIST", "PHASE", "PLUGIN", "PLUGINS", "PREPARE",
    "PRIVILEGES", "PROCEDURE", "PROCESS", "PROCESSLIST", "PROFILE", "PROFILES", "PROXY",
    "QUERY", "READ", "RECOVER", "RECURSIVE", "REFERENCE", "RELAY", "RELAYLOG", "RELOAD",
    "REPLACE", "REPLICA", "REPLICAS", "REPLICATION", "RESOURCE", "RESUME", "ROLE", "ROTATE",
    "ROUTINE", "ROW", "SAVEPOINT", "SCHEMA", "SCHEMAS", "SECURITY", "SEQUENCE", "SERVER",
    "SESSION", "SHUTDOWN", "SLAVE", "SLAVES", "SLOW", "SONAME", "SOURCE", "SQL", "SQLSTATE",
    "SQL_THREAD", "STACKED", "STAGE", "START", "STATUS", "STORAGE", "SUPER", "SUSPEND",
    "SWAPS", "SWITCHES", "SYSTEM", "TABLES", "TABLESPACE", "TEMPORARY", "TEMPTABLE",
    "TRANSACTION", "TRIGGER", "TRIGGERS", "UNDEFINED", "UNDO", "UNTIL", "USAGE", "USER",
    "VALUE", "VARIABLES", "VIEW", "WAIT", "WARNINGS", "WORK", "XML",
];

/// Whether `word` (unquoted) is reserved.
pub(in crate::sql) fn is_reserved(word: &str) -> bool {
    RESERVED.iter().any(|r| r.eq_ignore_ascii_case(word))
}

/// Whether `word` (unquoted) is a keyword: reserved, or one of the statement words.
pub(in crate::sql) fn is_keyword(word: &str) -> bool {
    is_reserved(word)
        || STATEMENT_WORDS
            .binary_search(&word.to_ascii_uppercase().as_str())
            .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lists are upper-case, sorted (the binary search needs it) and apart.
    #[test]
    fn word_lists_are_sorted_upper_case_and_disjoint() {
        for list in [RESERVED, STATEMENT_WORDS] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "not sorted: {list:?}");
            assert!(list.iter().all(|w| *w == w.to_ascii_uppercase()));
        }
        assert!(STATEMENT_WORDS.iter().all(|w| !is_reserved(w)));
    }

    #[test]
    fn lookups_ignore_case() {
        assert!(is_keyword("status") && is_keyword("Select") && is_reserved("select"));
        assert!(!is_keyword("sbtest1") && !is_reserved("status"));
    }
}
