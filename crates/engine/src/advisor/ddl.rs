//! The DDL the advisor is asked about: parsed as the server would, and sorted into the
//! kinds the playbooks answer (removing a table, emptying it, dropping partitions,
//! changing it).

use crate::sql::{Algorithm, AlterAction, Command, TableName};

/// What the DDL does, as far as choosing a way to run it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DdlKind {
    /// `DROP TABLE t`.
    DropTable,
    /// `TRUNCATE TABLE t`.
    TruncateTable,
    /// `ALTER TABLE t DROP PARTITION p [, q ...]`.
    DropPartitions(Vec<String>),
    /// Any other ALTER TABLE, CREATE INDEX or DROP INDEX the simulator models.
    Alter,
}

/// The DDL, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ddl {
    /// Its kind.
    pub kind: DdlKind,
    /// The table it is about.
    pub table: String,
    /// The schema it names, if it does.
    pub schema: Option<String>,
    /// The statement as written.
    pub text: String,
}

fn refuse(text: &str, why: &str) -> String {
    format!("--ddl \"{text}\": {why}")
}

impl Ddl {
    /// Reads `text`: one statement the advisor has playbooks for, on one table, without
    /// `ALGORITHM=` (the playbooks choose it).
    pub fn parse(text: &str) -> Result<Ddl, String> {
        let parsed = crate::sql::parse(text).map_err(|e| refuse(text, &e.to_string()))?;
        let [one] = parsed.as_slice() else {
            return Err(refuse(text, "give one statement"));
        };
        let (kind, table) = match &one.command {
            Command::DropTable { tables, .. } => match tables.as_slice() {
                [t] => (DdlKind::DropTable, t.clone()),
                _ => return Err(refuse(text, "drop one table at a time")),
            },
            Command::TruncateTable { table } => (DdlKind::TruncateTable, table.clone()),
            Command::AlterTable {
                table,
                actions,
                algorithm,
                ..
            } => (alter_kind(text, actions, *algorithm)?, table.clone()),
            Command::CreateIndex {
                table, algorithm, ..
            }
            | Command::DropIndex {
                table, algorithm, ..
            } => {
                no_algorithm(text, *algorithm)?;
                (DdlKind::Alter, table.clone())
            }
            _ => {
                return Err(refuse(
                    text,
                    "the advisor plans DROP TABLE, TRUNCATE TABLE, ALTER TABLE, CREATE INDEX and DROP INDEX",
                ))
            }
        };
        let TableName { schema, table } = table;
        Ok(Ddl {
            kind,
            table,
            schema,
            text: one.text.clone(),
        })
    }

    /// Whether the DDL takes the table away from the application (its load is
    /// elsewhere while it runs).
    pub fn removes_data(&self) -> bool {
        !matches!(self.kind, DdlKind::Alter)
    }

    /// The statement with `clause` added: `ALGORITHM=INPLACE` after an ALTER's
    /// actions (`, ALGORITHM=...`) or a CREATE/DROP INDEX (` ALGORITHM=...`).
    pub fn with_clause(&self, clause: &str) -> String {
        let upper = self.text.trim_start().to_ascii_uppercase();
        if upper.starts_with("ALTER") {
            format!("{}, {clause}", self.text)
        } else {
            format!("{} {clause}", self.text)
        }
    }
}

fn no_algorithm(text: &str, algorithm: Algorithm) -> Result<(), String> {
    if algorithm == Algorithm::Default {
        return Ok(());
    }
    Err(refuse(
        text,
        "leave ALGORITHM= out: the playbooks try INSTANT, INPLACE and COPY",
    ))
}

fn alter_kind(
    text: &str,
    actions: &[AlterAction],
    algorithm: Algorithm,
) -> Result<DdlKind, String> {
    no_algorithm(text, algorithm)?;
    if actions.is_empty() {
        return Err(refuse(text, "ALTER TABLE with no change does nothing"));
    }
    let partitions: Vec<&Vec<String>> = actions
        .iter()
        .filter_map(|a| match a {
            AlterAction::DropPartition { names } => Some(names),
            _ => None,
        })
        .collect();
    if let [names] = partitions.as_slice() {
        if actions.len() == 1 {
            return Ok(DdlKind::DropPartitions((*names).clone()));
        }
    }
    let tablespace = actions.iter().any(|a| {
        matches!(
            a,
            AlterAction::DiscardTablespace
                | AlterAction::ImportTablespace
                | AlterAction::DropPartition { .. }
                | AlterAction::TruncatePartition { .. }
        )
    });
    if tablespace {
        return Err(refuse(
            text,
            "the advisor plans DROP PARTITION on its own, not DISCARD/IMPORT TABLESPACE or TRUNCATE PARTITION",
        ));
    }
    Ok(DdlKind::Alter)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert_eq!(
            Ddl::parse("DROP TABLE big").unwrap().kind,
            DdlKind::DropTable
        );
        assert_eq!(
            Ddl::parse("truncate table test.big")
                .unwrap()
                .schema
                .as_deref(),
            Some("test")
        );
        assert_eq!(
            Ddl::parse("ALTER TABLE t DROP PARTITION p0, p1")
                .unwrap()
                .kind,
            DdlKind::DropPartitions(vec!["p0".into(), "p1".into()])
        );
        let add = Ddl::parse("ALTER TABLE t ADD COLUMN c INT").unwrap();
        assert_eq!(add.kind, DdlKind::Alter);
        assert_eq!(
            add.with_clause("ALGORITHM=COPY"),
            "ALTER TABLE t ADD COLUMN c INT, ALGORITHM=COPY"
        );
        let idx = Ddl::parse("CREATE INDEX i ON t (k)").unwrap();
        assert_eq!(
            idx.with_clause("ALGORITHM=INPLACE"),
            "CREATE INDEX i ON t (k) ALGORITHM=INPLACE"
        );
    }

    #[test]
    fn refusals_name_the_field_and_say_why() {
        for (ddl, why) in [
            ("DROP TABLE a, b", "one table"),
            ("SELECT 1", "the advisor plans"),
            (
                "ALTER TABLE t ADD COLUMN c INT, ALGORITHM=INPLACE",
                "leave ALGORITHM= out",
            ),
            ("DROP TABLEX t", "1064"),
            ("DROP TABLE a; DROP TABLE b", "one statement"),
            (
                "ALTER TABLE t DISCARD TABLESPACE",
                "DROP PARTITION on its own",
            ),
            (
                "ALTER TABLE t DROP PARTITION p0, ADD COLUMN c INT",
                "on its own",
            ),
        ] {
            let e = Ddl::parse(ddl).unwrap_err();
            assert!(e.starts_with("--ddl"), "{e}");
            assert!(e.contains(why), "{ddl}: {e}");
        }
    }
}
