//! Independent engine runs side by side: each input on its own engine, at most one
//! thread a core. The engine knows nothing of threads; each run is a plain
//! function call, so the results are the same whatever the number of cores.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;

/// `f` over `inputs` on up to `available_parallelism()` threads; the results in
/// the inputs' order.
pub fn map<T: Sync, R: Send>(inputs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let workers = thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(inputs.len());
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(inputs.iter().map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else { break };
                let r = f(input);
                results.lock().expect("no worker panics while holding it")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("the workers are done")
        .into_iter()
        .map(|r| r.expect("every input was taken by a worker"))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_inputs_order() {
        let inputs: Vec<u64> = (0..50).collect();
        let out = super::map(&inputs, |&n| n * n);
        assert_eq!(out, inputs.iter().map(|n| n * n).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u64], |&n| n).is_empty());
    }
}
