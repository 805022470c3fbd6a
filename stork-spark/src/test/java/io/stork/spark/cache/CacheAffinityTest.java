package io.stork.spark.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.FileStatusWithMetadata;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/** Which host each range of a file is sent to: stable, spread, moved only when its host leaves. */
class CacheAffinityTest {

    private static final String[] HOSTS = {"node-1", "node-2", "node-3", "node-4", "node-5"};

    @Test
    void aRangeAlwaysAsksForTheSameTwoHosts() {
        String[] first = CacheAffinity.choose("stork://b/t/part-0", 3, HOSTS, 2);
        String[] again = CacheAffinity.choose("stork://b/t/part-0", 3, HOSTS.clone(), 2);
        assertThat(again).containsExactly(first);
        assertThat(first[0]).isNotEqualTo(first[1]);
        assertThat(HOSTS).contains(first);
        // The order hosts are given in does not matter: rendezvous scores, not positions.
        String[] reversed = HOSTS.clone();
        java.util.Collections.reverse(Arrays.asList(reversed));
        assertThat(CacheAffinity.choose("stork://b/t/part-0", 3, reversed, 2)).containsExactly(first);
    }

    @Test
    void rangesSpreadEvenlyAndOnlyALeavingHostsRangesMove() {
        Map<String, Integer> counts = new HashMap<>();
        String[] four = Arrays.copyOf(HOSTS, 4);
        int ranges = 20_000;
        int moved = 0;
        for (int i = 0; i < ranges; i++) {
            String path = "stork://bucket/events/part-" + (i % 500) + ".parquet";
            String withFive = CacheAffinity.choose(path, i / 500, HOSTS, 1)[0];
            counts.merge(withFive, 1, Integer::sum);
            String withFour = CacheAffinity.choose(path, i / 500, four, 1)[0];
            if (!withFive.equals("node-5")) {
                assertThat(withFour).as("a range whose host stays keeps it").isEqualTo(withFive);
            } else {
                moved++;
            }
        }
        for (String host : HOSTS) {
            assertThat(counts.get(host)).as(host).isBetween((int) (ranges / 5 * 0.9), (int) (ranges / 5 * 1.1));
        }
        assertThat(moved).isEqualTo(counts.get("node-5"));
    }

    @Test
    void eachBlockSizedRangeOfAFileGetsItsOwnLocation() {
        long mib = 1024 * 1024;
        FileStatus status = new FileStatus(300 * mib, false, 1, 128 * mib, 0, new Path("stork://b/t/part-7.parquet"));
        LocatedFileStatus located = CacheAffinity.located(status, HOSTS, 2);
        BlockLocation[] locations = located.getBlockLocations();
        assertThat(locations).hasSize(3);
        assertThat(Arrays.stream(locations).mapToLong(BlockLocation::getOffset)).containsExactly(0L, 128 * mib, 256 * mib);
        assertThat(Arrays.stream(locations).mapToLong(BlockLocation::getLength)).containsExactly(128 * mib, 128 * mib,
                44 * mib);
        for (int i = 0; i < locations.length; i++) {
            try {
                assertThat(locations[i].getHosts()).containsExactly(
                        CacheAffinity.choose(status.getPath().toString(), i, HOSTS, 2));
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        assertThat(located.getPath()).isEqualTo(status.getPath());
        assertThat(located.getLen()).isEqualTo(status.getLen());
        // One host per range: the first choice alone.
        BlockLocation[] single = CacheAffinity.located(status, HOSTS, 1).getBlockLocations();
        for (int i = 0; i < single.length; i++) {
            try {
                assertThat(single[i].getHosts()).containsExactly(locations[i].getHosts()[0]);
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void oneHostOrNoneLeavesTheListingAsItIs() {
        FileStatus status = new FileStatus(10, false, 1, 128, 0, new Path("stork://b/t/part-0"));
        List<PartitionDirectory> listing = List.of(directory(status));
        assertThat(new CacheAffinity(List::of).locate(listing)).isSameAs(listing);
        assertThat(new CacheAffinity(() -> List.of("only")).locate(listing)).isSameAs(listing);
        List<PartitionDirectory> located = new CacheAffinity(() -> List.of("a", "b", "c")).locate(listing);
        FileStatus got = CollectionConverters.asJava(located.get(0).files()).get(0).fileStatus();
        assertThat(got).isInstanceOf(LocatedFileStatus.class);
        assertThat(((LocatedFileStatus) got).getBlockLocations()).hasSize(1);
    }

    private static PartitionDirectory directory(FileStatus status) {
        FileStatusWithMetadata file = new FileStatusWithMetadata(status, scala.collection.immutable.Map$.MODULE$.empty());
        return PartitionDirectory.apply(InternalRow.empty(), CollectionConverters.asScala(List.of(file)).toList());
    }
}
