package io.stork.manifest.commit;

import java.util.Map;

/**
 * How a dataset's own properties (kept in its manifest) change the commit settings a writer brings: a
 * dataset may keep its retention, which then holds for every writer whatever its configuration says. The
 * rule lives with the configuration (stork-hadoop's settings reader); the commit point only applies it.
 */
@FunctionalInterface
public interface DatasetSettingsRule {

    /** The writer's settings, unchanged by any property. */
    DatasetSettingsRule NONE = (settings, properties) -> settings;

    /** The settings of a commit to a dataset whose properties (after the commit) are {@code properties}. */
    CommitSettings apply(CommitSettings settings, Map<String, String> properties);
}
