//! The Advisor's advice in the worker: its playbooks run beside the engines, a slice
//! of each timer frame, with progress told as it goes.
//!
//! ```text
//!   Advise{form} ──▶ AdviceJob::start  (refused: Advised{Err(why, naming the field)})
//!   each frame   ──▶ virtual seconds of the playbook running, for ADVICE_WORK_MS
//!                    ──▶ AdviceProgress(playbook k of n, seconds)
//!   the last one ──▶ Advised{Ok(ranking)}   CancelAdvice: dropped, Advised{Err(cancelled)}
//! ```
//!
//! Each playbook runs on its own engine, as `ddlscope advise` runs it, so the panel's
//! ranking is the CLI's (`model::advisor`); the page's own engines are not touched.

use super::Host;
use crate::model::advisor::{AdviceJob, AdviceView, AdvisorForm};
use crate::model::remote::protocol::Reply;

/// Wall time a timer frame gives the advice, ms (the engines on the page get theirs
/// first: `host::WORK_MS`).
const ADVICE_WORK_MS: f64 = 12.0;

/// The advice running: the ask it answers, and the job.
#[derive(Debug)]
pub(super) struct Advising {
    ask: u32,
    job: AdviceJob,
}

impl Host {
    /// Starts the advice for `form` in place of any running, answering `ask`;
    /// input the advisor cannot model is answered at once with why.
    pub(super) fn advise(&mut self, ask: u32, form: &AdvisorForm) {
        self.advising = None;
        match AdviceJob::start(form) {
            Ok(job) if job.is_empty() => self.replies.push(Reply::Advised {
                ask,
                result: Err("no playbook applies to this DDL".to_string()),
            }),
            Ok(job) => {
                self.replies.push(Reply::AdviceProgress(job.progress()));
                self.advising = Some(Advising { ask, job });
            }
            Err(e) => self.replies.push(Reply::Advised {
                ask,
                result: Err(e),
            }),
        }
    }

    /// Drops the advice running, if any; its ask is answered that it was cancelled.
    pub(super) fn cancel_advice(&mut self) {
        if let Some(Advising { ask, .. }) = self.advising.take() {
            let result = Err("the advice was cancelled".to_string());
            self.replies.push(Reply::Advised { ask, result });
        }
    }

    /// Runs the advice for this frame's slice; tells where it is, or its ranking
    /// once the last playbook has run.
    pub(super) fn work_advice(&mut self, clock: &dyn Fn() -> f64) {
        let Some(a) = self.advising.as_mut() else {
            return;
        };
        let started = clock();
        loop {
            match a.job.advance(1) {
                Ok(Some(p)) if clock() - started >= ADVICE_WORK_MS => {
                    self.replies.push(Reply::AdviceProgress(p));
                    return;
                }
                Ok(Some(_)) => {}
                Ok(None) => break,
                Err(e) => {
                    let ask = a.ask;
                    self.advising = None;
                    self.replies.push(Reply::Advised {
                        ask,
                        result: Err(e),
                    });
                    return;
                }
            }
        }
        let Some(Advising { ask, job }) = self.advising.take() else {
            return;
        };
        let result = job.finish().map(|advice| AdviceView::from(&advice));
        self.replies.push(Reply::Advised { ask, result });
    }
}
