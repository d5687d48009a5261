import weka.classifiers.trees.j48.C45ModelSelection;
import weka.classifiers.trees.j48.C45PruneableClassifierTree;
import weka.core.Instances;
import weka.core.converters.ConverterUtils.DataSource;

/**
 * Seconds of J48's own pruning, prune(), on an ARFF file whose last attribute is the class.
 * The tree is built as J48 -C 0.25 -M 2 builds it (grown, collapsed, its rows kept for subtree
 * raising) but not pruned by buildClassifier; prune() is then timed alone. Prints the seconds
 * and the pruned tree's number of leaves. Run: java -cp weka.jar J48PruneTime.java FILE.arff
 */
public class J48PruneTime {
    public static void main(String[] args) throws Exception {
        Instances data = DataSource.read(args[0]);
        data.setClassIndex(data.numAttributes() - 1);
        // (selection, pruneTree, confidence, subtreeRaising, cleanup): cleanup would drop the rows
        C45PruneableClassifierTree tree = new C45PruneableClassifierTree(
            new C45ModelSelection(2, data), false, 0.25f, true, false);
        tree.buildClassifier(data);
        long start = System.nanoTime();
        tree.prune();
        System.out.println((System.nanoTime() - start) / 1e9);
        System.out.println(tree.numLeaves());
    }
}
