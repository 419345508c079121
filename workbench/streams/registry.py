"""One record per real data set the papers use: where it comes from and what shape its source documents.

Each :class:`Dataset` is one loadable table (the binary Covertype and the full KDD file are records
of their own).  The documented shape is what the loaders check a parsed file against: a different
number of feature columns, classes or rows is an error (a download cut short at a line boundary
parses, and only its row count tells), a different class size a warning naming both figures.
``notes`` records where a paper quotes a different figure.  :func:`list_datasets` shows the
registry as a table, with what is already on disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field

UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
LIBSVM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary"
UCI_LICENCE = "CC BY 4.0 (UCI Machine Learning Repository)"
LIBSVM_LICENCE = "that of the original data (LIBSVM redistributes it; no licence of its own stated)"


@dataclass(frozen=True)
class RemoteFile:
    """One file of a data set: its source URL and the name it is stored under in the data folder.

    ``member`` is the name the loader gives the file it takes out of a zip archive (the archive's
    own member names are never used as paths); ``hosts`` are further hosts a redirect may lead to
    (SourceForge sends every download to a mirror host).  ``size`` is the file's size in bytes
    where it is recorded: a download must then bring exactly that many (otherwise it may bring
    at most what the documented rows can take, :data:`~workbench.streams.remote.BYTES_PER_VALUE`
    per value, and the rows of a delimited or LIBSVM file are counted before it is used).
    """

    url: str
    filename: str
    member: str | None = None
    hosts: tuple[str, ...] = ()
    size: int | None = None


@dataclass(frozen=True)
class Dataset:
    name: str
    call: str  # how a user loads it
    title: str
    folder: str  # sub-folder of data_home
    files: tuple[RemoteFile, ...]
    fmt: str  # "csv" (delimited text), "libsvm", "arff", "adult"
    rows: int
    features: int
    classes: tuple[str, ...]  # class names in code order
    class_values: tuple[float, ...] | None = None  # numeric labels in code order (csv, libsvm)
    class_counts: tuple[int, ...] | None = None  # documented size of each class, in code order
    parts: tuple[int, ...] = ()  # documented rows of each file, when there are several
    feature_names: tuple[str, ...] = ()
    nominal: dict = field(default_factory=dict)  # feature name -> declared categories or None
    sep: str = ","
    skip: int = 0  # header lines to skip in each file
    target: int = -1  # column of the label in a delimited row
    label_suffix: str = ""  # stripped from text labels (KDD's "normal.")
    has_missing: bool = False
    partial: bool = False  # takes n= to read only the first rows
    #: a well-kept fetcher that maintains this set's source and checksum, tried before the
    #: direct URLs (``workbench.streams._fetchers``): "sklearn:<function>" or "openml:<data id>"
    fetcher: str = ""
    version: str = ""
    source: str = ""
    homepage: str = ""
    citation: str = ""
    licence: str = ""
    papers: str = ""
    notes: str = ""


_COVTYPE_NAMES = (
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
    *(f"Wilderness_Area{i}" for i in range(1, 5)),
    *(f"Soil_Type{i}" for i in range(1, 41)),
)

_KDD_NAMES = (
    "duration",
    "protocol_type",
    "service",
    "flag",
    "src_bytes",
    "dst_bytes",
    "land",
    "wrong_fragment",
    "urgent",
    "hot",
    "num_failed_logins",
    "logged_in",
    "num_compromised",
    "root_shell",
    "su_attempted",
    "num_root",
    "num_file_creations",
    "num_shells",
    "num_access_files",
    "num_outbound_cmds",
    "is_host_login",
    "is_guest_login",
    "count",
    "srv_count",
    "serror_rate",
    "srv_serror_rate",
    "rerror_rate",
    "srv_rerror_rate",
    "same_srv_rate",
    "diff_srv_rate",
    "srv_diff_host_rate",
    "dst_host_count",
    "dst_host_srv_count",
    "dst_host_same_srv_rate",
    "dst_host_diff_srv_rate",
    "dst_host_same_src_port_rate",
    "dst_host_srv_diff_host_rate",
    "dst_host_serror_rate",
    "dst_host_srv_serror_rate",
    "dst_host_rerror_rate",
    "dst_host_srv_rerror_rate",
)

#: The 23 labels of both KDD Cup 1999 training files (without the trailing period), in code order.
_KDD_CLASSES = (
    "back",
    "buffer_overflow",
    "ftp_write",
    "guess_passwd",
    "imap",
    "ipsweep",
    "land",
    "loadmodule",
    "multihop",
    "neptune",
    "nmap",
    "normal",
    "perl",
    "phf",
    "pod",
    "portsweep",
    "rootkit",
    "satan",
    "smurf",
    "spy",
    "teardrop",
    "warezclient",
    "warezmaster",
)
_KDD10_COUNTS = (
    2203,
    30,
    8,
    53,
    12,
    1247,
    21,
    9,
    7,
    107201,
    231,
    97278,
    3,
    4,
    264,
    1040,
    10,
    1589,
    280790,
    2,
    979,
    1020,
    20,
)

_HIGGS_NAMES = (
    "lepton_pT",
    "lepton_eta",
    "lepton_phi",
    "missing_energy_magnitude",
    "missing_energy_phi",
    *(f"jet{j}_{q}" for j in range(1, 5) for q in ("pt", "eta", "phi", "b-tag")),
    "m_jj",
    "m_jjj",
    "m_lv",
    "m_jlv",
    "m_bb",
    "m_wbb",
    "m_wwbb",
)

_SUSY_NAMES = (
    "lepton1_pT",
    "lepton1_eta",
    "lepton1_phi",
    "lepton2_pT",
    "lepton2_eta",
    "lepton2_phi",
    "missing_energy_magnitude",
    "missing_energy_phi",
    "MET_rel",
    "axial_MET",
    "M_R",
    "M_TR_2",
    "R",
    "MT2",
    "S_R",
    "M_Delta_R",
    "dPhi_r_b",
    "cos_theta_r1",
)

_ADULT_NAMES = (
    "age",
    "type_employer",
    "fnlwgt",
    "education",
    "education_num",
    "marital",
    "occupation",
    "relationship",
    "race",
    "sex",
    "capital_gain",
    "capital_loss",
    "hr_per_week",
    "country",
)

_BALDI_2014 = (
    "P. Baldi, P. Sadowski, D. Whiteson. Searching for exotic particles in high-energy "
    "physics with deep learning. Nature Communications 5, 4308 (2014)"
)
_LIBSVM_CITE = (
    "C.-C. Chang, C.-J. Lin. LIBSVM: a library for support vector machines. ACM TIST "
    "2(3), 27 (2011); data page: LIBSVM Data: Classification (Binary Class)"
)

REGISTRY: dict[str, Dataset] = {
    d.name: d
    for d in [
        Dataset(
            name="covertype",
            call="covertype()",
            title="Forest cover type (UCI), 7 classes",
            folder="covertype",
            files=(RemoteFile(f"{UCI}/covtype/covtype.data.gz", "covtype.data.gz"),),
            fetcher="sklearn:fetch_covtype",
            fmt="csv",
            rows=581_012,
            features=54,
            classes=tuple(str(k) for k in range(1, 8)),
            class_values=tuple(float(k) for k in range(1, 8)),
            class_counts=(211_840, 283_301, 35_754, 2_747, 9_493, 17_367, 20_510),
            feature_names=_COVTYPE_NAMES,
            version="UCI #31, 1998 release",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/31/covertype",
            citation="J. A. Blackard, D. J. Dean. Comparative accuracies of artificial neural networks "
            "and discriminant analysis in predicting forest cover types from cartographic "
            "variables. Computers and Electronics in Agriculture 24(3), 131-151 (1999)",
            licence=UCI_LICENCE,
            papers="003, 004",
            notes="003 says 6 cover types and around 495,000 records; the source documents 7 classes "
            "and 581,012 rows. The 44 wilderness and soil indicators are kept as numeric 0/1.",
        ),
        Dataset(
            name="covertype_binary",
            call="covertype(binary=True)",
            title="Forest cover type, LIBSVM's binary version (Lodgepole Pine against the rest)",
            folder="covertype",
            files=(RemoteFile(f"{LIBSVM}/covtype.libsvm.binary.bz2", "covtype.libsvm.binary.bz2"),),
            fmt="libsvm",
            rows=581_012,
            features=54,
            classes=("1", "2"),
            class_values=(1.0, 2.0),
            class_counts=(297_711, 283_301),
            feature_names=_COVTYPE_NAMES,
            version="LIBSVM binary (unscaled)",
            source="LIBSVM",
            homepage=f"{LIBSVM}.html",
            citation="Blackard and Dean (1999) via " + _LIBSVM_CITE,
            licence=LIBSVM_LICENCE,
            papers="000 (Table I)",
            notes="000 Table I: 54 x 581,012, |+| = 283,301, |-| = 297,711, as documented. Which of "
            "LIBSVM's labels 1/2 is the 283,301-row class is not stated there; a different "
            "split only gives the class-size warning.",
        ),
        Dataset(
            name="airlines",
            call="airlines()",
            title="Airlines flight delays (MOA)",
            folder="airlines",
            files=(
                RemoteFile(
                    "https://downloads.sourceforge.net/project/moa-datastream/Datasets/"
                    "Classification/airlines.arff.zip",
                    "airlines.arff.zip",
                    member="airlines.arff",
                    hosts=("sourceforge.net",),
                ),
            ),
            fmt="arff",
            rows=539_383,
            features=7,
            classes=("0", "1"),
            class_counts=(299_119, 240_264),
            version="MOA data sets page (airlines.arff)",
            source="MOA",
            homepage="https://moa.cms.waikato.ac.nz/datasets/",
            citation="E. Ikonomovska, from the ASA Data Expo 2009 flight data; MOA version: A. Bifet, "
            "G. Holmes, R. Kirkby, B. Pfahringer. MOA: Massive Online Analysis. JMLR 11 (2010)",
            licence="not stated by the source",
            papers="000 (Table I)",
            notes="000 Table I: 7 x 539,383, |+| = 240,264 (delayed), |-| = 299,119, as documented. "
            "The airline and airports are nominal; a hand-placed airlines.arff is used as is.",
        ),
        Dataset(
            name="a9a",
            call="a9a()",
            title="Adult, LIBSVM's a9a + a9a.t (123 binary features)",
            folder="a9a",
            files=(RemoteFile(f"{LIBSVM}/a9a", "a9a"), RemoteFile(f"{LIBSVM}/a9a.t", "a9a.t")),
            fmt="libsvm",
            rows=48_842,
            features=123,
            classes=("-1", "+1"),
            class_values=(-1.0, 1.0),
            class_counts=(37_155, 11_687),
            parts=(32_561, 16_281),
            version="LIBSVM binary",
            source="LIBSVM",
            homepage=f"{LIBSVM}.html",
            citation="J. C. Platt. Fast training of support vector machines using sequential minimal "
            "optimization (1998), from UCI Adult (Kohavi 1996); via " + _LIBSVM_CITE,
            licence=LIBSVM_LICENCE,
            papers="000 (Table I)",
            notes="000 Table I: 123 x 48,842 (a9a and a9a.t together), |+| = 11,687, as documented. "
            "info.params['parts'] gives the rows of each file (a9a.t is the test file).",
        ),
        Dataset(
            name="cod_rna",
            call="cod_rna()",
            title="COD-RNA, LIBSVM's cod-rna + cod-rna.t + cod-rna.r",
            folder="cod_rna",
            files=tuple(
                RemoteFile(f"{LIBSVM}/{f}", f) for f in ("cod-rna", "cod-rna.t", "cod-rna.r")
            ),
            fmt="libsvm",
            rows=488_565,
            features=8,
            classes=("-1", "+1"),
            class_values=(-1.0, 1.0),
            class_counts=(325_710, 162_855),
            parts=(59_535, 271_617, 157_413),
            version="LIBSVM binary",
            source="LIBSVM",
            homepage=f"{LIBSVM}.html",
            citation="A. V. Uzilov, J. M. Keegan, D. H. Mathews. Detection of non-coding RNAs on the "
            "basis of predicted secondary structure formation free energy change. BMC "
            "Bioinformatics 7, 173 (2006); via " + _LIBSVM_CITE,
            licence=LIBSVM_LICENCE,
            papers="000 (Table I)",
            notes="000 Table I: 8 x 488,565 (the three files together), |+| = 162,855, as documented.",
        ),
        Dataset(
            name="kdd99",
            call="kdd99()",
            title="KDD Cup 1999 intrusion detection, the 10% file",
            folder="kdd99",
            files=(
                RemoteFile(
                    f"{UCI}/kddcup99-mld/kddcup.data_10_percent.gz", "kddcup.data_10_percent.gz"
                ),
            ),
            fetcher="sklearn:fetch_kddcup99",
            fmt="csv",
            rows=494_021,
            features=41,
            classes=_KDD_CLASSES,
            class_counts=_KDD10_COUNTS,
            feature_names=_KDD_NAMES,
            nominal={"protocol_type": None, "service": None, "flag": None},
            label_suffix=".",
            version="UCI #130 (KDD archive, 1999)",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/130/kdd+cup+1999+data",
            citation="S. Stolfo, W. Fan, W. Lee, A. Prodromidis, P. Chan. KDD Cup 1999 Data. UCI "
            "Machine Learning Repository (1999)",
            licence=UCI_LICENCE,
            papers="004",
            notes="23 classes; protocol_type, service and flag are nominal (codes of their values "
            "sorted as strings, as found in the file read).",
        ),
        Dataset(
            name="kdd99_full",
            call="kdd99(full=True)",
            title="KDD Cup 1999 intrusion detection, full file",
            folder="kdd99",
            files=(RemoteFile(f"{UCI}/kddcup99-mld/kddcup.data.gz", "kddcup.data.gz"),),
            fetcher="sklearn:fetch_kddcup99(percent10=False)",
            fmt="csv",
            rows=4_898_431,
            features=41,
            classes=_KDD_CLASSES,
            feature_names=_KDD_NAMES,
            nominal={"protocol_type": None, "service": None, "flag": None},
            label_suffix=".",
            partial=True,
            version="UCI #130 (KDD archive, 1999)",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/130/kdd+cup+1999+data",
            citation="Stolfo et al., KDD Cup 1999 Data, UCI (1999)",
            licence=UCI_LICENCE,
            papers="003, 004",
            notes="003 says about 4,898,000 records of 42 attributes (41 features and the label), "
            "as documented.",
        ),
        Dataset(
            name="adult_full",
            call="adult(full=True)",
            title="UCI Adult, adult.data + adult.test",
            folder="adult",
            files=(
                RemoteFile(f"{UCI}/adult/adult.data", "adult.data"),
                RemoteFile(f"{UCI}/adult/adult.test", "adult.test"),
            ),
            fmt="adult",
            rows=48_842,
            features=14,
            classes=("<=50K", ">50K"),
            class_counts=(37_155, 11_687),
            parts=(32_561, 16_281),
            feature_names=_ADULT_NAMES,
            nominal={
                n: None
                for n in (
                    "type_employer",
                    "education",
                    "marital",
                    "occupation",
                    "relationship",
                    "race",
                    "sex",
                    "country",
                )
            },
            has_missing=True,
            version="UCI #2, 1996 release",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/2/adult",
            citation="B. Becker, R. Kohavi. Adult. UCI Machine Learning Repository (1996)",
            licence=UCI_LICENCE,
            papers="003",
            notes="003 says around 45,000 records (45,222 have no missing value) of 14 attributes. "
            "Missing values ('?') are NaN; the test file's trailing '.' on labels is dropped.",
        ),
        Dataset(
            name="poker",
            call="poker()",
            title="Poker hand (UCI), training + testing files",
            folder="poker",
            files=(
                RemoteFile(
                    f"{UCI}/poker/poker-hand-training-true.data", "poker-hand-training-true.data"
                ),
                RemoteFile(f"{UCI}/poker/poker-hand-testing.data", "poker-hand-testing.data"),
            ),
            fmt="csv",
            rows=1_025_010,
            features=10,
            classes=tuple(str(k) for k in range(10)),
            class_values=tuple(float(k) for k in range(10)),
            class_counts=(513_702, 433_097, 48_828, 21_634, 3_978, 2_050, 1_460, 236, 17, 8),
            parts=(25_010, 1_000_000),
            feature_names=tuple(f"{p}{i}" for i in range(1, 6) for p in ("S", "C")),
            nominal={f"S{i}": ("1", "2", "3", "4") for i in range(1, 6)},
            version="UCI #158, 2007",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/158/poker+hand",
            citation="R. Cattral, F. Oppacher. Poker Hand. UCI Machine Learning Repository (2002)",
            licence=UCI_LICENCE,
            papers="004",
            notes="Suits S1..S5 are nominal (codes 0-3 for suits 1-4), ranks C1..C5 numeric 1-13.",
        ),
        Dataset(
            name="skin",
            call="skin()",
            title="Skin segmentation (UCI): B, G, R",
            folder="skin",
            files=(RemoteFile(f"{UCI}/00229/Skin_NonSkin.txt", "Skin_NonSkin.txt"),),
            fmt="csv",
            sep="\t",
            rows=245_057,
            features=3,
            classes=("1", "2"),
            class_values=(1.0, 2.0),
            class_counts=(50_859, 194_198),
            feature_names=("B", "G", "R"),
            version="UCI #229, 2012",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/229/skin+segmentation",
            citation="R. Bhatt, A. Dhall. Skin Segmentation. UCI Machine Learning Repository (2012)",
            licence=UCI_LICENCE,
            papers="004",
            notes="Class 1 (code 0) is skin; the file lists all skin rows first (004 discusses it).",
        ),
        Dataset(
            name="higgs",
            call="higgs(n=None)",
            title="HIGGS (UCI): signal against background",
            folder="higgs",
            files=(RemoteFile(f"{UCI}/00280/HIGGS.csv.gz", "HIGGS.csv.gz"),),
            fmt="csv",
            target=0,
            rows=11_000_000,
            features=28,
            classes=("0", "1"),
            class_values=(0.0, 1.0),
            feature_names=_HIGGS_NAMES,
            partial=True,
            version="UCI #280, 2014",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/280/higgs",
            citation=_BALDI_2014,
            licence=UCI_LICENCE,
            papers="004",
        ),
        Dataset(
            name="susy",
            call="susy(n=None)",
            title="SUSY (UCI): signal against background",
            folder="susy",
            files=(RemoteFile(f"{UCI}/00279/SUSY.csv.gz", "SUSY.csv.gz"),),
            fmt="csv",
            target=0,
            rows=5_000_000,
            features=18,
            classes=("0", "1"),
            class_values=(0.0, 1.0),
            feature_names=_SUSY_NAMES,
            partial=True,
            version="UCI #279, 2014",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/279/susy",
            citation=_BALDI_2014,
            licence=UCI_LICENCE,
            papers="004",
        ),
        Dataset(
            name="hepmass",
            call="hepmass(n=None)",
            title="HEPMASS (UCI), all_train + all_test",
            folder="hepmass",
            files=(
                RemoteFile(f"{UCI}/00347/all_train.csv.gz", "all_train.csv.gz"),
                RemoteFile(f"{UCI}/00347/all_test.csv.gz", "all_test.csv.gz"),
            ),
            fmt="csv",
            target=0,
            skip=1,
            rows=10_500_000,
            features=28,
            classes=("0", "1"),
            class_values=(0.0, 1.0),
            parts=(7_000_000, 3_500_000),
            feature_names=(*(f"f{i}" for i in range(27)), "mass"),
            partial=True,
            version="UCI #347, 2016",
            source="UCI",
            homepage="https://archive.ics.uci.edu/dataset/347/hepmass",
            citation="P. Baldi, K. Cranmer, T. Faucett, P. Sadowski, D. Whiteson. Parameterized neural "
            "networks for high-energy physics. Eur. Phys. J. C 76, 235 (2016)",
            licence=UCI_LICENCE,
            papers="004",
            notes="The 'all' files (every mass); each starts with a header line, skipped.",
        ),
        Dataset(
            name="pima",
            call="pima()",
            title="Pima Indians Diabetes (OpenML data id 37)",
            folder="pima",
            files=(
                RemoteFile(
                    "https://www.openml.org/data/v1/download/37/diabetes.arff",
                    "diabetes.arff",
                    hosts=("openml.org",),
                ),
            ),
            fetcher="openml:37",
            fmt="arff",
            rows=768,
            features=8,
            classes=("tested_negative", "tested_positive"),
            class_counts=(500, 268),
            version="OpenML data id 37, version 1",
            source="OpenML",
            homepage="https://www.openml.org/d/37",
            citation="J. W. Smith, J. E. Everhart, W. C. Dickson, W. C. Knowler, R. S. Johannes. Using "
            "the ADAP learning algorithm to forecast the onset of diabetes mellitus. Proc. "
            "Symp. Computer Applications in Medical Care, 261-265 (1988)",
            licence="Public (as OpenML lists it)",
            papers="001",
            notes="001 calls it Diabetes and gives no shape. Zeros in plas, pres, skin, insu and mass "
            "stand for missing measurements in the source; they are kept as written.",
        ),
    ]
}

#: The sets that need no download, in the same table.
SHIPPED = {
    "electricity": dict(
        call="electricity()",
        title="NSW electricity prices (MOA elecNormNew)",
        rows=45_312,
        features=6,
        n_classes=2,
        source="shipped",
        version="MOA elecNormNew without date and day",
        citation="M. Harries. Splice-2 comparative evaluation: electricity pricing (1999)",
        licence="not stated by the source",
        papers="000 (Table I), 002",
        notes="000 Table I gives 8 dimensions (with date and day); the shipped file has 6.",
    ),
    "adult": dict(
        call="adult()",
        title="UCI Adult without rows with a missing value",
        rows=30_162,
        features=14,
        n_classes=2,
        source="shipped",
        version="UCI #2 (1996)",
        citation="B. Becker, R. Kohavi. Adult. UCI (1996)",
        licence=UCI_LICENCE,
        papers="003",
        notes="adult(full=True) downloads all 48,842 rows.",
    ),
    "breast_cancer": dict(
        call="breast_cancer()",
        title="Wisconsin diagnostic breast cancer",
        rows=569,
        features=30,
        n_classes=2,
        source="scikit-learn",
        version="as shipped with scikit-learn",
        citation="W. N. Street, W. H. Wolberg, O. L. Mangasarian. Nuclear feature "
        "extraction for breast tumor diagnosis (1993)",
        licence="CC BY 4.0 (UCI)",
        papers="",
        notes="Class 0 malignant (212), class 1 benign (357), as in scikit-learn.",
    ),
}


#: the one source of each kind of set that needs no download
SHIPPED_FROM = {
    "shipped": "inside the package (workbench/streams/data)",
    "scikit-learn": "the copy scikit-learn installs (sklearn.datasets)",
}


def sources(d: Dataset) -> list[str]:
    """Where ``d`` is loaded from, in the order the loader tries them: the well-kept fetcher
    that maintains it (if any), then the direct URLs (one entry: all of its files).  With
    ``$WORKBENCH_DATA_MIRROR`` set, only the mirror's copies of the direct URLs."""
    import os

    from ._download import ENV_MIRROR, mirrored
    from ._fetchers import describe

    direct = " + ".join(f.url for f in d.files)
    if os.environ.get(ENV_MIRROR, "").strip():
        return [" + ".join(mirrored(f.url) for f in d.files) + f" (${ENV_MIRROR})"]
    return ([describe(d.fetcher)] if d.fetcher else []) + [direct]


def checksums(d: Dataset, folder) -> tuple[dict, str]:
    """The SHA-256 of each file ``d`` was loaded from, as far as recorded in ``folder``: the
    parsed cache's record if it is there, else the ``<file>.sha256`` records beside the
    downloaded files; and how the sums are known."""
    from . import _cache
    from ._download import ChecksumError, recorded_checksum

    sums, how = {}, ""
    cache = folder / f"{d.name}.npz"
    if cache.exists():
        try:
            meta = _cache.read_meta(cache)
            sums, how = dict(meta.get("sha256") or {}), str(meta.get("checksum") or "")
        except _cache.CacheError:
            pass
    for f in d.files:
        for name in filter(None, (f.filename, f.member)):
            try:
                recorded = recorded_checksum(folder / name)
            except ChecksumError:
                recorded = None
            if recorded and name not in sums:
                sums[name] = recorded
                how = how or FIRST_DOWNLOAD
    return sums, how


#: how the checksum of a file without a published one is known
FIRST_DOWNLOAD = (
    "SHA-256 recorded when the file first arrived (downloaded, or put there by hand): the "
    "source publishes none"
)


def list_datasets(data_home=None):
    """The registry as a DataFrame, one row per loadable table, with what is on disk.

    Columns: ``name``, ``call`` (how to load it), ``title``, ``rows``, ``features``, ``classes``
    (the documented shape), ``source``, ``sources`` (where the loader fetches it from, in the
    order it tries them: :func:`sources`), ``version``, ``licence``, ``citation``, ``papers``
    (which of the five papers use it), ``notes`` (differences between a paper's figures and the
    source's), ``cached`` (the parsed cache is in ``data_home``; always true for the shipped
    sets), ``raw`` (the source files present in ``data_home``), ``sha256`` ({file: SHA-256} of
    the files it was loaded from, once downloaded; a file that no longer matches its sum is an
    error when it is read again), ``checksum`` (where the sums come from: published by the
    fetcher's maintainers, or recorded at the first download) and ``folder``.  Nothing is
    downloaded or created.

    Examples
    --------
    >>> import tempfile
    >>> from workbench import streams
    >>> table = streams.list_datasets(data_home=tempfile.mkdtemp()).set_index("name")
    >>> table.loc["covertype_binary", ["rows", "features", "classes"]].astype(int).tolist()
    [581012, 54, 2]
    >>> bool(table.loc["covertype_binary", "cached"]), bool(table.loc["electricity", "cached"])
    (False, True)
    """
    import pandas as pd

    from ._download import data_home as _home

    home = _home(data_home)
    rows = []
    for d in REGISTRY.values():
        folder = home / d.folder
        raw = [
            f.filename
            for f in d.files
            if (folder / f.filename).exists()
            or (f.member is not None and (folder / f.member).exists())
        ]
        sums, how = checksums(d, folder)
        rows.append(
            dict(
                name=d.name,
                call=d.call,
                title=d.title,
                rows=d.rows,
                features=d.features,
                classes=len(d.classes),
                source=d.source,
                sources=sources(d),
                version=d.version,
                licence=d.licence,
                citation=d.citation,
                papers=d.papers,
                notes=d.notes,
                cached=(folder / f"{d.name}.npz").exists(),
                raw=raw,
                sha256=sums,
                checksum=how,
                folder=str(folder),
            )
        )
    for name, s in SHIPPED.items():
        rows.append(
            dict(
                name=name,
                call=s["call"],
                title=s["title"],
                rows=s["rows"],
                features=s["features"],
                classes=s["n_classes"],
                source=s["source"],
                sources=[SHIPPED_FROM[s["source"]]],
                version=s["version"],
                licence=s["licence"],
                citation=s["citation"],
                papers=s["papers"],
                notes=s["notes"],
                cached=True,
                raw=[],
                sha256={},
                checksum="",
                folder="",
            )
        )
    return pd.DataFrame(rows)
