package io.stork.store.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback HTTP server answering the two credential protocols the AWS SDK's default chain speaks over
 * HTTP, with keys the local store accepts, so that the SDK's own providers run unchanged against it:
 * <ul>
 *   <li>container credentials (ECS, EKS Pod Identity): {@code GET /container/credentials}, the URL for
 *       {@code AWS_CONTAINER_CREDENTIALS_FULL_URI} ({@link #containerUri()});</li>
 *   <li>instance metadata, IMDSv2: {@code PUT /latest/api/token}, then with that token {@code GET
 *       /latest/meta-data/iam/security-credentials/} (the role) and {@code .../<role>}; the endpoint for
 *       {@code AWS_EC2_METADATA_SERVICE_ENDPOINT} ({@link #endpoint()}).</li>
 * </ul>
 * Anything else (the SDK's newer "-extended" path among them) answers 404, which the SDK answers by the
 * legacy path. Every request is recorded ({@link #requests()}) with the headers tests look at.
 */
final class CredentialsEndpoint implements AutoCloseable {

    static final String ROLE = "stork-it-role";
    private static final String IMDS_TOKEN = "imds-session-token-for-tests";

    /** A request as the server saw it: method, path, and the headers that matter here. */
    record Request(String method, String path, String imdsToken) {
        String line() {
            return method + " " + path;
        }
    }

    private final HttpServer server;
    private final String accessKey;
    private final String secretKey;
    private final String sessionToken;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicLong> hits = new ConcurrentHashMap<>();

    /** @param sessionToken the {@code Token} of the answers (real endpoints always send one); null: none */
    CredentialsEndpoint(String accessKey, String secretKey, String sessionToken) throws IOException {
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.sessionToken = sessionToken;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    URI containerUri() {
        return endpoint().resolve("/container/credentials");
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

    long hits(String methodAndPath) {
        return requests.stream().filter(r -> r.line().equals(methodAndPath)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        String imdsToken = exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token");
        requests.add(new Request(method, path, imdsToken));
        try (exchange) {
            if (method.equals("GET") && path.equals("/container/credentials")) {
                send(exchange, 200, credentialsJson(false));
            } else if (method.equals("PUT") && path.equals("/latest/api/token")
                    && exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token-ttl-seconds") != null) {
                send(exchange, 200, IMDS_TOKEN);
            } else if (path.startsWith("/latest/meta-data/") && !IMDS_TOKEN.equals(imdsToken)) {
                send(exchange, 401, "");
            } else if (method.equals("GET") && path.equals("/latest/meta-data/iam/security-credentials/")) {
                send(exchange, 200, ROLE);
            } else if (method.equals("GET") && path.equals("/latest/meta-data/iam/security-credentials/" + ROLE)) {
                send(exchange, 200, credentialsJson(true));
            } else {
                send(exchange, 404, "");
            }
        }
    }

    private String credentialsJson(boolean imds) {
        String expiration = Instant.now().plus(6, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS).toString();
        return "{" + (imds ? "\"Code\":\"Success\",\"Type\":\"AWS-HMAC\",\"LastUpdated\":\""
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + "\"," : "")
                + "\"AccessKeyId\":\"" + accessKey + "\",\"SecretAccessKey\":\"" + secretKey + "\","
                + (sessionToken == null ? "" : "\"Token\":\"" + sessionToken + "\",")
                + "\"Expiration\":\"" + expiration + "\"}";
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
