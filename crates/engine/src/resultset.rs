//! Result sets: the columns and rows a statement returns, and how the `mysql` client
//! prints them.
//!
//! ```text
//! +----+------+-----------+------+---------+------+---------------------------------+
//! | Id | User | Host      | db   | Command | Time | State                           |
//! +----+------+-----------+------+---------+------+---------------------------------+
//! |  8 | root | localhost | test | Query   |    3 | Waiting for table metadata lock |
//! +----+------+-----------+------+---------+------+---------------------------------+
//! 1 row in set (0.00 sec)
//! ```
//!
//! The client right-aligns numeric columns and prints SQL NULL as `NULL`; the engine
//! keeps each cell as text (or `None` for NULL) with a per-column "numeric" flag, so the
//! app and the CLI print exactly what the engine returns and never format on their own.

use crate::time::Tick;
use serde::Serialize;

/// A statement's result set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ResultSet {
    /// Column names, in order.
    pub columns: Vec<String>,
    /// Whether each column is numeric (right-aligned by the client).
    pub numeric: Vec<bool>,
    /// Rows; `None` is SQL NULL.
    pub rows: Vec<Vec<Option<String>>>,
}

impl ResultSet {
    /// An empty result with these columns; `numeric` names the numeric ones.
    pub fn new(columns: &[&str], numeric: &[&str]) -> ResultSet {
        ResultSet {
            columns: columns.iter().map(|c| (*c).to_owned()).collect(),
            numeric: columns.iter().map(|c| numeric.contains(c)).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    ///
    /// # Panics
    /// If the row's width differs from the columns'.
    pub fn push(&mut self, row: Vec<Option<String>>) {
        assert_eq!(row.len(), self.columns.len(), "row width");
        self.rows.push(row);
    }

    /// The index of a column, case-insensitively.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.eq_ignore_ascii_case(name))
    }

    /// The value of `column` in row `row`, if both exist and it is not NULL.
    pub fn get(&self, row: usize, column: &str) -> Option<&str> {
        let c = self.column(column)?;
        self.rows.get(row)?.get(c)?.as_deref()
    }

    /// The `mysql` client's table, followed by its `N rows in set (x sec)` line; an empty
    /// result prints `Empty set (x sec)` alone.
    pub fn render(&self, elapsed: Tick) -> String {
        if self.rows.is_empty() {
            return format!("Empty set ({})", secs(elapsed));
        }
        let cell = |v: &Option<String>| v.clone().unwrap_or_else(|| "NULL".to_owned());
        let mut widths: Vec<usize> = self.columns.iter().map(|c| c.chars().count()).collect();
        for row in &self.rows {
            for (w, v) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell(v).chars().count());
            }
        }
        let border: String = widths.iter().fold("+".to_owned(), |mut s, w| {
            s.push_str(&"-".repeat(w + 2));
            s.push('+');
            s
        });
        let line = |cells: Vec<String>, numeric: &[bool]| {
            let mut s = "|".to_owned();
            for ((v, w), num) in cells.iter().zip(&widths).zip(numeric) {
                let pad = w - v.chars().count();
                if *num {
                    s.push_str(&format!(" {}{v} |", " ".repeat(pad)));
                } else {
                    s.push_str(&format!(" {v}{} |", " ".repeat(pad)));
                }
            }
            s
        };
        let mut out = vec![border.clone()];
        out.push(line(self.columns.clone(), &vec![false; self.columns.len()]));
        out.push(border.clone());
        for row in &self.rows {
            out.push(line(row.iter().map(cell).collect(), &self.numeric));
        }
        out.push(border);
        let n = self.rows.len();
        out.push(format!(
            "{n} {} in set ({})",
            if n == 1 { "row" } else { "rows" },
            secs(elapsed)
        ));
        out.join("\n")
    }
}

/// The client's elapsed time: `0.00 sec`, `15.54 sec`, `1 min 2.00 sec`.
pub fn secs(elapsed: Tick) -> String {
    let cs = elapsed.as_ms() / 10;
    let (s, frac) = (cs / 100, cs % 100);
    if s >= 60 {
        format!("{} min {}.{frac:02} sec", s / 60, s % 60)
    } else {
        format!("{s}.{frac:02} sec")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    #[test]
    fn prints_as_the_mysql_client_does() {
        let mut r = ResultSet::new(&["Id", "State", "Info"], &["Id"]);
        r.push(vec![
            Some("12".into()),
            Some("Waiting for table metadata lock".into()),
            None,
        ]);
        r.push(vec![
            Some("8".into()),
            Some(String::new()),
            Some("x".into()),
        ]);
        expect![[r#"
            +----+---------------------------------+------+
            | Id | State                           | Info |
            +----+---------------------------------+------+
            | 12 | Waiting for table metadata lock | NULL |
            |  8 |                                 | x    |
            +----+---------------------------------+------+
            2 rows in set (1.50 sec)"#]]
        .assert_eq(&r.render(Tick::from_ms(1_504)));
        assert_eq!(
            ResultSet::new(&["a"], &[]).render(Tick::ZERO),
            "Empty set (0.00 sec)"
        );
        assert_eq!(secs(Tick::from_ms(62_000)), "1 min 2.00 sec");
    }
}
