import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;

/**
 * Readiness probe used by scripts/infra.sh: exits 0 only when the broker at
 * args[0] answers a metadata round trip (describeCluster + listTopics).
 * Compiled once with javac against the cached Kafka jars.
 */
public final class KafkaReady {
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: KafkaReady host:port[,host:port...]");
            System.exit(2);
        }
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "voltdepot-infra-probe");
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "3000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "4000");
        props.put(AdminClientConfig.RETRIES_CONFIG, "1");
        try (Admin admin = Admin.create(props)) {
            DescribeClusterResult cluster = admin.describeCluster();
            String clusterId = cluster.clusterId().get(4, TimeUnit.SECONDS);
            int nodes = cluster.nodes().get(4, TimeUnit.SECONDS).size();
            Set<String> topics = admin.listTopics().names().get(4, TimeUnit.SECONDS);
            if (nodes < 1) {
                System.err.println("no broker registered yet");
                System.exit(1);
            }
            System.out.println("cluster " + clusterId + ", " + nodes + " broker(s), " + topics.size() + " topic(s)");
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            System.err.println("not ready: " + cause.getClass().getSimpleName() + ": " + cause.getMessage());
            System.exit(1);
        }
    }
}
