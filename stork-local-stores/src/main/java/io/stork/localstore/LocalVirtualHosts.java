package io.stork.localstore;

import java.net.URI;
import java.util.List;

/**
 * Virtual-hosted-style S3 on the local store (scripts/local-store.sh start --vhost): s3api's storage domain,
 * an endpoint under it, and the only bucket names whose host names ({@code <bucket>.<domain>}) resolve to the
 * store (the script writes them to /etc/hosts; no wildcard resolution exists here).
 */
public record LocalVirtualHosts(URI endpoint, String storageDomain, List<String> buckets) {

    public LocalVirtualHosts {
        buckets = List.copyOf(buckets);
    }
}
