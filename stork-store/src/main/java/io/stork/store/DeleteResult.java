package io.stork.store;

import java.util.List;
import java.util.Map;

/**
 * Outcome of a bulk delete. Keys that were already absent count as deleted (delete is idempotent).
 *
 * @param failures key → the store's reason, for keys the store refused to delete
 */
public record DeleteResult(int deleted, Map<String, String> failures) {

    public DeleteResult {
        failures = Map.copyOf(failures);
    }

    public boolean allDeleted() {
        return failures.isEmpty();
    }

    public List<String> failedKeys() {
        return failures.keySet().stream().sorted().toList();
    }
}
